// Loaded with `node --import` (NODE_OPTIONS) into a process under test: appends every @opentelemetry/*
// package the process imports to the file named by HOOKLINE_TEST_IMPORT_LOG, so a test can show that
// a process with tracing off loads none (and, with tracing on, that this recorder sees them).
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@opentelemetry/') && process.env.HOOKLINE_TEST_IMPORT_LOG) {
    appendFileSync(process.env.HOOKLINE_TEST_IMPORT_LOG, specifier + '\\n');
  }
  return next(specifier, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
