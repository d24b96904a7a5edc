/**
 * A page as a browser loads it into a tab (Fetch Metadata: `Sec-Fetch-Mode: navigate`,
 * `Sec-Fetch-Dest: document`): only that is a view of a canary. With node:http, since Node's fetch
 * writes Fetch Metadata of its own (`Sec-Fetch-Mode: cors`) over the caller's.
 */
import { get as httpGet } from 'node:http';

const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

export function navigate(url: string, headers: Record<string, string>): Promise<Response> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { ...headers, ...NAVIGATION } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () => {
        const kept = new Headers();
        for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
          kept.append(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
        }
        resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode, headers: kept }));
      });
    }).on('error', reject);
  });
}
