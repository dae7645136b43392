import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/**
 * The baseline of a `--data` load: the same file read a megabyte at a time, decoded and split
 * into lines, and nothing more (the floor of any reader that streams it). It then says so as a
 * server would, so the bench times it the way it times the emulator's start.
 */
const fd = openSync(process.argv[2] as string, 'r');
const chunk = Buffer.alloc(1024 * 1024);
const decoder = new StringDecoder('utf8');
let lines = 0;
let pending = '';
for (let n = readSync(fd, chunk, 0, chunk.length, null); n > 0; n = readSync(fd, chunk, 0, chunk.length, null)) {
  const parts = (pending + decoder.write(chunk.subarray(0, n))).split('\n');
  pending = parts.pop() as string;
  lines += parts.length;
}
closeSync(fd);
process.stdout.write(`baseline (${lines} lines) listening on http://127.0.0.1:0\n`);
process.on('SIGTERM', () => process.exit(0));
setInterval(() => undefined, 60_000);
