import type { Logger } from 'pino';

/**
 * Graceful shutdown. Steps run in the order they were added — stop taking work (HTTP), stop
 * consumers and relays, then close the pool and the embedded database — each awaited, the whole
 * bounded by a timeout so a stuck step cannot keep a dying process alive forever.
 */
export interface ShutdownStep {
  readonly name: string;
  run(): Promise<void>;
}

export class Lifecycle {
  private readonly steps: ShutdownStep[] = [];
  private stopping: Promise<boolean> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  /** Adds a step to run at shutdown, after the ones added before it. */
  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  /** Runs every step once; later calls wait for the first. Resolves true when all steps finished in time. */
  shutdown(reason: string): Promise<boolean> {
    this.stopping ??= this.runSteps(reason);
    return this.stopping;
  }

  /**
   * Shuts down on SIGTERM and SIGINT, then exits: 0 when clean, 1 otherwise. A repeated signal
   * does not cut the shutdown short: Ctrl-C reaches every process of the group (npm, tsx, node)
   * and tsx relays it again, so one keypress arrives twice. The timeout bounds the wait instead.
   */
  handleSignals(exit: (code: number) => void = (code) => process.exit(code)): void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.stopping) {
        this.logger.info({ signal }, 'already shutting down');
        return;
      }
      void this.shutdown(signal).then((clean) => exit(clean ? 0 : 1));
    };
    process.on('SIGTERM', () => onSignal('SIGTERM'));
    process.on('SIGINT', () => onSignal('SIGINT'));
  }

  private async runSteps(reason: string): Promise<boolean> {
    this.logger.info({ reason }, 'shutting down');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.timeoutMs);
      timer.unref();
    });
    const work = (async () => {
      let clean = true;
      for (const step of this.steps) {
        const started = performance.now();
        try {
          await step.run();
          this.logger.info({ step: step.name, ms: Math.round(performance.now() - started) }, 'stopped');
        } catch (error) {
          clean = false;
          this.logger.error({ step: step.name, err: error }, 'shutdown step failed');
        }
      }
      return clean;
    })();
    const clean = await Promise.race([work, timeout]);
    clearTimeout(timer);
    if (!clean) this.logger.error({ timeoutMs: this.timeoutMs }, 'shutdown did not finish cleanly');
    else this.logger.info('shutdown complete');
    return clean;
  }
}
