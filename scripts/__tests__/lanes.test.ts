import { runInLanes, type Command } from '../lib/lanes';

/** A command that writes `lines` lines of its own, a little apart, then exits with `code`. */
const writer = (title: string, lines: number, code = 0): Command => ({
  title,
  command: process.execPath,
  args: [
    '-e',
    `let n = 0;
     const t = setInterval(() => {
       console.log(${JSON.stringify(title)} + ' line ' + n);
       if (++n === ${lines}) { clearInterval(t); process.exitCode = ${code}; }
     }, 5);`,
  ],
});

describe('commands run side by side (npm test, npm run static)', () => {
  it('shows each command whole, names every one that failed, and runs them all', async () => {
    const printed: string[] = [];
    const failed = await runInLanes(
      [writer('first', 20), writer('second', 20, 3), writer('third', 5), writer('fourth', 5, 1)],
      2,
      (text) => printed.push(text),
    );
    expect(failed.sort()).toEqual(['fourth', 'second']);
    expect(printed).toHaveLength(4);
    for (const block of printed) {
      const title = /^\n=== (\w+)\n/.exec(block)?.[1];
      expect(title).toBeDefined();
      // A block holds its own command's lines only, in order, and ends with its verdict.
      const lines = block.split('\n').filter((line) => / line \d+$/.test(line));
      expect(lines.every((line) => line.startsWith(`${title!} line `))).toBe(true);
      expect(lines).toEqual(lines.map((_, n) => `${title!} line ${n}`));
      expect(block).toMatch(
        new RegExp(
          `\\n${title!}: (passed|failed \\(exit \\d\\)) \\(\\d+ s, load \\d+\\.\\d\\)\\n$`,
        ),
      );
    }
    expect(printed.find((b) => b.includes('=== second'))).toContain('second: failed (exit 3)');
  });

  it('a command that cannot start is a failure with its reason, not a crash', async () => {
    const printed: string[] = [];
    const failed = await runInLanes(
      [{ title: 'missing', command: '/nonexistent/program', args: [] }],
      2,
      (text) => printed.push(text),
    );
    expect(failed).toEqual(['missing']);
    expect(printed.join('')).toMatch(/ENOENT/);
  });
});
