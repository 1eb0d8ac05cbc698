/**
 * Progress on a terminal: a spinner on a TTY, plain step lines otherwise, nothing under --json.
 * Written to stderr so stdout stays clean for output that is piped. Stage messages carry what a model or
 * a spec wrote (errors, findings): printed without their control characters.
 */
import pc from 'picocolors';
import { printable } from '../util/terminal.ts';
import type { CliContext } from './context.ts';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Progress {
  start(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  info(text: string): void;
  stop(): void;
}

export function createProgress(ctx: CliContext, quiet: boolean): Progress {
  if (quiet) return { start() {}, succeed() {}, fail() {}, info() {}, stop() {} };
  const stream = ctx.stderr;
  const tty = stream.isTTY === true;
  let current = '';
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;
  const clear = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    if (tty) stream.write('\r\x1b[2K');
  };
  const finish = (symbol: string, text?: string) => {
    clear();
    const line = text === undefined ? current : printable(text);
    if (line) stream.write(`${symbol} ${line}\n`);
    current = '';
  };
  return {
    start(text) {
      clear();
      current = printable(text);
      if (!tty) {
        stream.write(`- ${current}\n`);
        return;
      }
      const draw = () => stream.write(`\r\x1b[2K${pc.cyan(FRAMES[frame++ % FRAMES.length])} ${current}`);
      draw();
      timer = setInterval(draw, 80);
      timer.unref();
    },
    succeed: (text) => finish(pc.green('✔'), text),
    fail: (text) => finish(pc.red('✖'), text),
    info(text) {
      clear();
      stream.write(`${pc.dim('ℹ')} ${printable(text)}\n`);
      if (current && tty) this.start(current);
    },
    stop: clear,
  };
}
