/**
 * In-flow control, as Postfix's smtpd does it: intake may run ahead of delivery by a burst, and
 * under a flood by a fixed ratio, and no further, so that accepting messages can never take the
 * whole process and leave delivery starved.
 */

export interface InFlowOptions {
  /** How many messages may be accepted ahead of delivery before intake waits. */
  inFlowBurst?: number;
  /** The longest an accepted request waits for delivery to catch up; 0 turns the control off. */
  inFlowDelayMs?: number;
  /** Requests let in per delivery under a flood. */
  inFlowRatio?: number;
}

/**
 * Each delivery hands out a token and each accepted message takes one. When a flood of requests
 * runs ahead of delivery by more than the burst, a request waits for the next delivery (at most
 * `inFlowDelayMs`) before it is stored.
 */
export class InFlow {
  private tokens: number;
  private waiting: (() => void)[] = [];

  constructor(private readonly o: InFlowOptions) {
    this.tokens = o.inFlowBurst ?? 200;
  }

  /**
   * Lets a request in now (undefined) or after the next delivery. When delivery is stalled (relay
   * down, results not recorded), nothing waits: messages are accepted and kept.
   */
  admit(deliveryStalled: boolean): Promise<void> | undefined {
    if (this.tokens > 0 || this.o.inFlowDelayMs === 0 || deliveryStalled) {
      this.tokens = Math.max(0, this.tokens - 1);
      return undefined;
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting = this.waiting.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, this.o.inFlowDelayMs ?? 1000);
      this.waiting.push(done);
    });
  }

  /**
   * One message delivered: it lets `inFlowRatio` requests in, so that intake may run ahead of
   * delivery by that factor under a flood, and no further.
   */
  release(): void {
    for (let i = 0; i < (this.o.inFlowRatio ?? 6); i++) {
      const next = this.waiting.shift();
      if (next) next();
      else this.tokens = Math.min(this.o.inFlowBurst ?? 200, this.tokens + 1);
    }
  }

  /** Delivery has caught up: whoever waits may go, and the next burst is allowed in full. */
  caughtUp(): void {
    for (const w of this.waiting.splice(0)) w();
    this.tokens = this.o.inFlowBurst ?? 200;
  }
}
