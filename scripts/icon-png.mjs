// The page's favicon as a 32×32 PNG data URL: a blue ball (#0072b2) over a strip of ground (#5d564b), the
// picture of the SVG icon the page had before, on a 16-unit grid drawn at 2 pixels a unit. A PNG is decoded
// by the browser's image decoder, where an SVG icon is rendered as a document of its own during the load.
// Palette-indexed (2 bits a pixel, the background transparent), hard edges, so that it stays under 300 bytes.
// Regenerate it with `node scripts/icon-png.mjs` and paste the line it prints into web/index.html's
// <link rel="icon" href="…">. Node only (zlib), no dependency.
import { deflateSync } from 'node:zlib';

const SIZE = 32;
const SCALE = SIZE / 16;
/** The palette: transparent, the ball, the ground (RGB, and alpha in tRNS). */
const PALETTE = [[0, 0, 0], [0x00, 0x72, 0xb2], [0x5d, 0x56, 0x4b]];
const ALPHA = [0, 255, 255];

/** The palette index of the pixel whose centre is at (x, y) in the icon's 16-unit coordinates. */
function colourAt(x, y) {
  if (Math.hypot(x - 8, y - 6) <= 4) return 1;
  if (x >= 1 && x <= 15 && y >= 12 && y <= 15) return 2;
  return 0;
}

/** CRC-32 of a PNG chunk's type and data (ISO 3309, as PNG asks). */
function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** One chunk: length, type, data, CRC. */
function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

// The rows, each a filter byte (0: none) and 32 pixels of 2 bits, four to a byte, the first in the high bits.
const rowBytes = SIZE / 4;
const pixels = Buffer.alloc(SIZE * (1 + rowBytes));
for (let row = 0; row < SIZE; row++) {
  for (let column = 0; column < SIZE; column++) {
    const index = colourAt((column + 0.5) / SCALE, (row + 0.5) / SCALE);
    pixels[row * (1 + rowBytes) + 1 + (column >> 2)] |= index << (6 - 2 * (column & 3));
  }
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([2, 3, 0, 0, 0], 8);  // bit depth 2, colour type 3 (palette), deflate, adaptive filters, no interlace
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('PLTE', Buffer.from(PALETTE.flat())),
  chunk('tRNS', Buffer.from(ALPHA)),
  chunk('IDAT', deflateSync(pixels, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
console.log(`data:image/png;base64,${png.toString('base64')}`);
