import type { Queryable } from '../../platform/db.ts';
import { type AppendedLine, appendLines, type LineRequest } from './support.repository.ts';

type Waiting = {
  line: LineRequest;
  done: (line: AppendedLine | null) => void;
  fail: (error: unknown) => void;
};

/**
 * Group commit for the chat's common lines (support.repository.ts `appendLines`): the lines asked
 * for in one turn of the event loop are written together at the next, by one statement: one round
 * trip and one commit for them all. Nothing is answered before that commit. A statement that fails
 * (the lines were checked before they came here, so it should not) is tried again line by line, so
 * a bad line fails alone.
 */
export class LineWriter {
  private pending: Waiting[] = [];
  private scheduled = false;
  private readonly db: Queryable;
  private readonly now: () => Date;

  constructor(db: Queryable, now: () => Date) {
    this.db = db;
    this.now = now;
  }

  /** The line once committed, or null when its conversation does not take it (the caller checks why). */
  append(line: LineRequest): Promise<AppendedLine | null> {
    return new Promise((done, fail) => {
      this.pending.push({ line, done, fail });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    try {
      const answers = await appendLines(
        this.db,
        batch.map((w) => w.line),
        this.now(),
      );
      for (const [i, w] of batch.entries()) w.done(answers[i] ?? null);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.fail(error);
        return;
      }
      for (const w of batch)
        appendLines(this.db, [w.line], this.now()).then(([line]) => w.done(line ?? null), w.fail);
    }
  }
}
