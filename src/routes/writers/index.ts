import { asBytes } from './as-bytes';
import { asText } from './as-text';
import { onPageThread } from './on-thread';
import type { PageJob, PageWriter } from './page';
import { wholeRun } from './run';
import { streamed } from './stream';

/**
 * The ways of writing a page, in the order they are asked: the first that takes the page writes
 * it. Huge pages stream; a small list asked again is a slice of its run; a walk's page of seeded
 * calls goes to a page thread; a long order's page is written as bytes; anything else as text.
 */
export const PAGE_WRITERS: readonly PageWriter[] = [streamed, wholeRun, onPageThread, asBytes, asText];

/** Writes a page with the first writer that takes it. */
export async function writePage<R>(job: PageJob<R>): Promise<void> {
  for (const write of PAGE_WRITERS) if (await write(job)) return;
}
