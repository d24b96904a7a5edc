import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Ends the run with one plain line, `N passed, N failed`, for tools that read the closing line. */
export default class SummaryReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'skipped') this.skipped++;
    else if (result.status === test.expectedStatus) this.passed++;
    else if (result.retry === test.retries) this.failed++;
  }

  onEnd(_result: FullResult): void {
    console.log(
      `e2e: ${this.passed} passed, ${this.failed} failed${this.skipped ? `, ${this.skipped} skipped` : ''}`,
    );
  }
}
