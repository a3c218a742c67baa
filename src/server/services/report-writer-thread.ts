/**
 * A report's file written in a worker thread (report-writer-worker.ts), so that the backend's
 * thread only reads the rows: exceljs and pdfkit spend seconds of CPU on a 100,000-row file, which
 * on the backend's thread would hold up every other call between batches and leave the second core
 * idle while the rows are read (bench/reports.ts, end to end).
 *
 * At most `MAX_BATCHES_IN_FLIGHT` batches wait for the thread: `write` answers once it can take
 * another, so a database that reads faster than the file is written never piles a report up in
 * memory. A thread that finished a file waits `IDLE_MS` for the next report, which then starts at
 * once on a thread whose code is loaded and compiled; a thread that failed or was abandoned is stopped.
 */
import { Worker } from 'node:worker_threads';
import type { Column, Line } from './report-rows.js';
import type { ReportHeading, WriterFormat } from './report-writers.js';

export interface WriterThreadInit { format: WriterFormat; path: string; heading: ReportHeading; columns: Column[] }
export type ToWriterThread = { type: 'open'; init: WriterThreadInit } | { type: 'lines'; lines: Line[] } | { type: 'finish' };
export type FromWriterThread =
  | { type: 'ready' } | { type: 'open' } | { type: 'written' } | { type: 'finished'; sizeBytes: number }
  | { type: 'failed'; message: string; code?: string };

export interface ThreadedReportWriter {
  /** Hands a batch to the thread; answers once the thread can take another. */
  write(lines: Line[]): Promise<void>;
  /** Finishes the file; answers its size in bytes. */
  finish(): Promise<number>;
  /** Stops the thread without finishing the file (a cancel, a failed read). */
  abandon(): Promise<void>;
}

const MAX_BATCHES_IN_FLIGHT = 2;
/** How long a thread that finished a file waits for another report before it stops. */
const IDLE_MS = 60_000;

/**
 * Bundled (electron.vite.config.ts), the worker's entry is built beside this module's chunk. Under
 * tsx or vitest this module is its TypeScript source, and so is the entry: the thread loads it
 * through tsx's own import (a worker does not take the parent's loader).
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./report-writer-worker.js', import.meta.url));
  const entry = new URL('./report-writer-worker.ts', import.meta.url).href;
  // tsx found from here, not from the thread's working folder.
  const tsx = import.meta.resolve('tsx/esm/api');
  const load = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(load, { eval: true });
}

/** Threads waiting for a report, each with the timer that stops it and what drops it from here if it ends by itself. */
const idle: Array<{ worker: Worker; timer: NodeJS.Timeout; gone: () => void }> = [];

function takeIdle(): Worker | null {
  const entry = idle.pop();
  if (!entry) return null;
  clearTimeout(entry.timer);
  entry.worker.off('exit', entry.gone);
  return entry.worker;
}

function putIdle(worker: Worker): void {
  const gone = () => {
    const at = idle.findIndex((e) => e.worker === worker);
    if (at >= 0) idle.splice(at, 1);
  };
  const timer = setTimeout(() => {
    gone();
    void worker.terminate();
  }, IDLE_MS);
  // A waiting thread never keeps the process alive.
  timer.unref();
  worker.unref();
  // A thread that ended while waiting is never handed a report.
  worker.once('exit', gone);
  idle.push({ worker, timer, gone });
}

/** A failure in the thread as the job sees one from its own writer: the message, and the code (ENOSPC) when the file system gave one. */
function threadFailure(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

export async function openWriterThread(format: WriterFormat, path: string, heading: ReportHeading, columns: Column[]): Promise<ThreadedReportWriter> {
  const reused = takeIdle();
  const worker = reused ?? startWorker();
  worker.ref();
  let failure: Error | null = null;
  let inFlight = 0;
  let finished = false;
  let ended = false;
  // What the job is waiting for: the thread ready, the file open, room for a batch, or the finished file.
  let waiter: { resolve: (sizeBytes?: number) => void; reject: (error: Error) => void } | null = null;
  const wait = () => new Promise<number | undefined>((resolve, reject) => {
    if (failure) reject(failure);
    else waiter = { resolve, reject };
  });
  const wake = (sizeBytes?: number) => {
    const w = waiter;
    waiter = null;
    w?.resolve(sizeBytes);
  };
  const fail = (error: Error) => {
    failure ??= error;
    const w = waiter;
    waiter = null;
    w?.reject(failure);
  };

  const onMessage = (message: FromWriterThread) => {
    switch (message.type) {
      case 'ready': case 'open': wake(); break;
      case 'written': inFlight--; wake(); break;
      case 'finished': finished = true; wake(message.sizeBytes); break;
      case 'failed': fail(threadFailure(message.message, message.code)); break;
    }
  };
  const onError = (error: Error) => fail(error);
  const onExit = (code: number) => fail(threadFailure(`the report's writer thread stopped (exit code ${code})`));
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);

  /** Done with the thread: back to wait for the next report when it finished its file, else stopped. */
  const release = async () => {
    if (ended) return;
    ended = true;
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    if (finished && !failure) putIdle(worker);
    else await worker.terminate();
  };

  try {
    if (!reused) await wait();
    worker.postMessage({ type: 'open', init: { format, path, heading, columns } } satisfies ToWriterThread);
    await wait();
  } catch (error) {
    await release();
    throw error;
  }
  return {
    async write(lines) {
      if (failure) throw failure;
      worker.postMessage({ type: 'lines', lines } satisfies ToWriterThread);
      inFlight++;
      while (inFlight >= MAX_BATCHES_IN_FLIGHT) await wait();
    },
    async finish() {
      try {
        if (failure) throw failure;
        worker.postMessage({ type: 'finish' } satisfies ToWriterThread);
        // Every batch in flight is written before the finish is read: the thread takes them in order.
        let sizeBytes: number | undefined;
        while (!finished) sizeBytes = await wait();
        return sizeBytes!;
      } finally {
        await release();
      }
    },
    abandon: async () => {
      failure ??= threadFailure('the report\'s writer thread stopped: the report was abandoned');
      await release();
    },
  };
}
