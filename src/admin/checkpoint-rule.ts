/**
 * Bytes of accepted entries between two checkpoints at most, whatever `--checkpoint-every`
 * says: 400 writes of 1 MB each would otherwise sit in the log until the count came round.
 */
export const CHECKPOINT_BYTES = 16 * 2 ** 20;

/**
 * Where checkpoints fall in a log, counted alike by every replica that applies it: after
 * `every` entries, or once the entries applied since the last one weigh CHECKPOINT_BYTES. A
 * refused write weighs nothing (the log keeps a refusal of it), so a replica that read its body
 * and one that read only the refusal count the same.
 */
export class CheckpointRule {
  private entries = 0;
  private bytes = 0;

  constructor(private readonly every: number) {}

  /** Counts an applied entry of `bytes` (0 when refused); true when a checkpoint falls after it. */
  count(bytes: number): boolean {
    this.entries++;
    this.bytes += bytes;
    if (this.entries < this.every && this.bytes < CHECKPOINT_BYTES) return false;
    this.restart();
    return true;
  }

  /** A checkpoint fell here (or the replica started from one): counting starts again. */
  restart(): void {
    this.entries = 0;
    this.bytes = 0;
  }
}
