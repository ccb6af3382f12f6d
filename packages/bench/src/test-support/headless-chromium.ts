import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** The first Chromium on PATH (`KREPLAY_CHROMIUM` first), or null when there is none. */
export function findChromium(): string | null {
  const names = [process.env.KREPLAY_CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome'].filter((name): name is string => Boolean(name));
  for (const name of names) {
    const candidates = name.includes('/') ? [name] : (process.env.PATH ?? '').split(delimiter).map((directory) => join(directory, name));
    for (const candidate of candidates) {
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return null;
}

interface Message {
  readonly id?: number;
  readonly method?: string;
  readonly sessionId?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { message: string };
}

/** A page of a headless Chromium, driven over the DevTools protocol on a pipe (no extra package). */
export interface HeadlessPage {
  /** Console errors, uncaught exceptions and error log entries seen so far, in order. */
  readonly errors: string[];
  /** Loads a URL and waits for its load event. */
  load(url: string): Promise<void>;
  /** Evaluates an expression in the page and returns its value (JSON-serialisable). */
  evaluate(expression: string): Promise<unknown>;
  /** A PNG of the whole page, or of a rectangle of it (CSS pixels from the page's top left). */
  screenshot(clip?: { x: number; y: number; width: number; height: number }): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * Starts a headless Chromium with `--remote-debugging-pipe` and opens one page of the given size.
 * @throws Error when the browser exits or a protocol call fails.
 */
export async function openHeadlessPage(browser: string, width = 1280, height = 900): Promise<HeadlessPage> {
  const profile = mkdtempSync(join(tmpdir(), 'kreplay-chromium-'));
  const child: ChildProcess = spawn(browser, [
    '--headless', '--remote-debugging-pipe', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check',
    '--disable-extensions', '--disable-dev-shm-usage', `--user-data-dir=${profile}`, `--window-size=${width},${height}`, 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  const pending = new Map<number, { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  const listeners: ((message: Message) => void)[] = [];
  const errors: string[] = [];
  let nextId = 1;
  let buffered = '';
  let exited: Error | null = null;
  child.on('exit', (code, signal) => {
    exited = new Error(`chromium exited (${code ?? signal})`);
    for (const waiter of pending.values()) waiter.reject(exited);
    pending.clear();
  });
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as Message;
      buffered = buffered.slice(end + 1);
      if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(`${message.error.message}`));
        else waiter?.resolve(message.result ?? {});
      } else {
        for (const listener of listeners) listener(message);
      }
    }
  });
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      if (exited) return reject(exited);
      const id = nextId++;
      pending.set(id, { resolve, reject });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });

  const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
  const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
  listeners.push((message) => {
    if (message.sessionId !== sessionId) return;
    const params = message.params ?? {};
    if (message.method === 'Runtime.exceptionThrown') {
      const details = params.exceptionDetails as { text?: string; exception?: { description?: string } };
      errors.push(`uncaught: ${details.exception?.description ?? details.text ?? 'exception'}`);
    } else if (message.method === 'Runtime.consoleAPICalled' && (params.type === 'error' || params.type === 'assert')) {
      errors.push(`console.${String(params.type)}: ${(params.args as { value?: unknown; description?: string }[]).map((arg) => String(arg.value ?? arg.description)).join(' ')}`);
    } else if (message.method === 'Log.entryAdded') {
      const entry = params.entry as { level: string; text: string };
      if (entry.level === 'error') errors.push(`log: ${entry.text}`);
    }
  });
  await send('Runtime.enable', {}, sessionId);
  await send('Log.enable', {}, sessionId);
  await send('Page.enable', {}, sessionId);
  await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false }, sessionId);

  return {
    errors,
    async load(url) {
      const loaded = new Promise<void>((resolve) => {
        listeners.push((message) => {
          if (message.sessionId === sessionId && message.method === 'Page.loadEventFired') resolve();
        });
      });
      const result = await send('Page.navigate', { url }, sessionId);
      if (typeof result.errorText === 'string') throw new Error(`navigation to ${url} failed: ${result.errorText}`);
      await loaded;
    },
    async evaluate(expression) {
      const result = (await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)) as { result: { value?: unknown }; exceptionDetails?: { text: string } };
      if (result.exceptionDetails) throw new Error(`evaluating ${expression}: ${result.exceptionDetails.text}`);
      return result.result.value;
    },
    async screenshot(clip) {
      const { data } = (await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, ...(clip ? { clip: { ...clip, scale: 1 } } : {}) }, sessionId)) as { data: string };
      return Buffer.from(data, 'base64');
    },
    async close() {
      if (!exited) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        await send('Browser.close').catch(() => undefined);
        await gone;
      }
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
