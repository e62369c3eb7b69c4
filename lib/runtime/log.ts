// Structured logs through pino: one JSON object per line on stdout (`time`, `level`, `msg`, then the
// context), so they can be shipped and queried as-is; on a terminal the same lines are printed
// readably by pino-pretty. Every message, field and error passes through redactValue first
// (lib/runtime/redact-secrets.ts): API keys, whsec_ secrets, passwords and session cookies never reach a line.
//
// Callers keep the small interface they always had, `log.info(message, fields)` and `child(fields)`;
// the level is one process-wide setting, read on every call, so loggers created at import time follow
// a later setLogLevel (pino's own children would keep the level they were created with).
import { createRequire } from 'node:module';
import pino, { type DestinationStream } from 'pino';
import { redactString, redactValue } from './redact-secrets';

type Level = 'debug' | 'info' | 'warn' | 'error';
const levelRank: Record<Level, number> = { debug: 20, info: 30, warn: 40, error: 50 };

let minimumRank = levelRank[(process.env.HOOKLINE_LOG_LEVEL as Level | undefined) ?? 'info'] ?? levelRank.info;

export function setLogLevel(level: Level): void {
  minimumRank = levelRank[level];
}

export type Logger = Record<Level, (message: string, fields?: Record<string, unknown>) => void> & {
  child(fields: Record<string, unknown>): Logger;
};

function pinoOptions(): pino.LoggerOptions {
  return {
    level: 'debug', // filtering happens in createLogger, against minimumRank
    base: null, // no pid and hostname on every line: the worker id and component say which process
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
}

// pino-pretty is CommonJS; required synchronously so createLogger stays synchronous.
function prettyStream(): DestinationStream {
  const require = createRequire(import.meta.url);
  const { PinoPretty } = require('pino-pretty') as typeof import('pino-pretty');
  return PinoPretty({
    sync: true,
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'component',
    messageFormat: '{if component}{component}: {end}{msg}',
  });
}

let processRoot: pino.Logger | undefined;

/** The process's pino logger, writing to stdout (pretty when it is a terminal). */
function rootLogger(): pino.Logger {
  processRoot ??= pino(pinoOptions(), process.stdout.isTTY ? prettyStream() : process.stdout);
  return processRoot;
}

/**
 * A logger with `base` on every line. `destination` is for tests that read what was written; without
 * it, lines go to stdout.
 */
export function createLogger(base: Record<string, unknown> = {}, destination?: DestinationStream): Logger {
  return wrap(
    destination ? pino(pinoOptions(), destination) : rootLogger(),
    redactValue(base) as Record<string, unknown>,
  );
}

// Bindings are merged here rather than with pino's child(): a child's field replaces its parent's
// (`component: 'worker'` under `component: 'start'`), where pino would write the key twice.
function wrap(logger: pino.Logger, bindings: Record<string, unknown>): Logger {
  const write = (level: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (levelRank[level] < minimumRank) return;
    logger[level](fields ? { ...bindings, ...(redactValue(fields) as object) } : bindings, redactString(message));
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (fields) => wrap(logger, { ...bindings, ...(redactValue(fields) as object) }),
  };
}
