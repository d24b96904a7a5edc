/**
 * A group's share of the machine: the render processes of all its versions together (its live
 * one, its canary, its previews and the versions its deploys check) hold at most `slots` processes,
 * its memory budget over the memory one process may hold. Every process is ended above that limit
 * (render/pool.ts), so a group never holds more than its budget, however many versions it deploys.
 *
 * A pool takes a slot before it starts a process and gives it back when the process is gone. A
 * pool that finds none waits, and the budget asks the group's other pools for an idle process to
 * end (`reclaim`); a process that finishes a render while another of the group's pools waits gives
 * its slot up rather than idle on it. The live version's pools are woken first.
 */
interface Waiter {
  /** Tries again to start a process (the pool's dispatch). */
  wake(): void;
  /** A live version's pool (the live one or a canary): served before previews. */
  readonly isLive: boolean;
}

export class ProcessBudget {
  private used = 0;
  private readonly waiting = new Set<Waiter>();

  constructor(
    readonly slots: number,
    /** Ends one idle process of the group's pools other than `except`'s; whether it found one. */
    private readonly reclaim: (except: Waiter) => boolean,
  ) {
    if (!Number.isInteger(slots) || slots < 1) {
      throw new Error(`a group's render budget needs room for one process (${slots})`);
    }
  }

  /** A slot for a new process, or false: `waiter` is woken once one may be free. */
  take(waiter: Waiter): boolean {
    if (this.used < this.slots) {
      this.used += 1;
      this.waiting.delete(waiter);
      return true;
    }
    this.waiting.add(waiter);
    this.reclaim(waiter);
    return false;
  }

  /** A process is gone: its slot is free for the pools that wait, the live ones first. */
  give(): void {
    this.used = Math.max(0, this.used - 1);
    if (this.waiting.size === 0) return;
    const waiters = [...this.waiting].sort((a, b) => Number(b.isLive) - Number(a.isLive));
    this.waiting.clear();
    // After this turn: the process's own pool is still tidying up after it.
    setImmediate(() => {
      for (const waiter of waiters) waiter.wake();
    });
  }

  /** Whether a pool of the group waits for a slot (an idle process then gives its own up). */
  get wanted(): boolean {
    return this.waiting.size > 0;
  }
}
