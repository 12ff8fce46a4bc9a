import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * Decodes one JPEG 2000 codestream with `jpeg2000` (pdf.js's pure-JavaScript JPX decoder) off the
 * main thread: a large image takes seconds of CPU, which must not stall the server's event loop.
 * Answers interleaved 8-bit pixels, or an error message.
 */
type JpxTile = { left: number; top: number; width: number; height: number; items: Uint8Array };
type JpxDecoder = {
  parse(data: Buffer): void;
  width: number;
  height: number;
  componentsCount: number;
  tiles: JpxTile[];
};
const { JpxImage } = createRequire(import.meta.url)('jpeg2000') as { JpxImage: new () => JpxDecoder };

const input = workerData as { codestream: Uint8Array };
try {
  const jpx = new JpxImage();
  jpx.parse(Buffer.from(input.codestream.buffer, input.codestream.byteOffset, input.codestream.byteLength));
  const { width, height, componentsCount: channels } = jpx;
  const pixels = new Uint8Array(width * height * channels);
  for (const tile of jpx.tiles) {
    const rowBytes = tile.width * channels;
    for (let y = 0; y < tile.height; y++) {
      const from = y * rowBytes;
      pixels.set(tile.items.subarray(from, from + rowBytes), ((tile.top + y) * width + tile.left) * channels);
    }
  }
  parentPort?.postMessage({ ok: true, width, height, channels, pixels }, [pixels.buffer]);
} catch (error) {
  parentPort?.postMessage({ ok: false, message: (error as Error).message });
}
