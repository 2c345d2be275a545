/**
 * The CPU time Chromium's processes spend on a stream: work counted, where a latency is a
 * clock read on a machine that may be busy. At 1,000 tok/s the renderer is the resource the
 * answer's words and hunks queue for (its main thread, its compositor and raster threads),
 * so less of its time per token is what the latency figures wait on; and unlike them this
 * figure moves little with the load beside it (about 5 % between runs here).
 *
 * From the browser's own count (CDP SystemInfo.getProcessInfo), so it reads the same on
 * every platform Chromium runs on.
 *
 * Read it with the batches the page took: main sends the next batch once the renderer has
 * acknowledged the last, so while the renderer is the bottleneck it takes as many batches
 * as it has time for, and a saving shows first as more, smaller batches, not as less CPU.
 */
import type { BrowserContext, CDPSession } from 'playwright-core';

interface ProcessInfo {
  type: string;
  id: number;
  /** Seconds of CPU since the process started. */
  cpuTime: number;
}

/** Milliseconds of CPU: the renderers' (the page's, and any idle spare) and all of Chromium's. */
export interface ChromiumCpu {
  rendererMs: number;
  totalMs: number;
}

export class ChromiumCpuMeter {
  private constructor(private readonly session: CDPSession) {}

  static async open(context: BrowserContext): Promise<ChromiumCpuMeter> {
    const browser = context.browser();
    if (!browser) throw new Error('no browser behind this context to ask for its processes');
    return new ChromiumCpuMeter(await browser.newBrowserCDPSession());
  }

  /** The CPU every Chromium process has used so far. */
  async read(): Promise<ChromiumCpu> {
    const { processInfo } = (await this.session.send('SystemInfo.getProcessInfo')) as { processInfo: ProcessInfo[] };
    const ms = (infos: ProcessInfo[]) => infos.reduce((sum, info) => sum + info.cpuTime * 1000, 0);
    return { rendererMs: ms(processInfo.filter((info) => info.type === 'renderer')), totalMs: ms(processInfo) };
  }

  /** What `run` returns, and what it cost Chromium per 1,000 of the `tokens` it streamed. */
  async perThousandTokens<T>(tokens: number, run: () => Promise<T>): Promise<{ result: T; cpu: ChromiumCpu }> {
    const before = await this.read();
    const result = await run();
    const after = await this.read();
    const per = (value: number) => (value * 1000) / tokens;
    return { result, cpu: { rendererMs: per(after.rendererMs - before.rendererMs), totalMs: per(after.totalMs - before.totalMs) } };
  }
}

/** The batches the page has acknowledged so far, from the channels of its requests (openFlintPage's `requests`). */
export function acknowledgements(requests: readonly string[]): number {
  return requests.filter((channel) => channel === 'ask:ack').length;
}
