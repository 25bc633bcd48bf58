// Random scenario documents and share states for the link codec's round-trip tests: every kind of body,
// plane, joint and contact the format has, numbers of every magnitude, and names and texts full of what a
// link must carry unchanged (quotes, HTML, emoji, RTL text, the characters of URLs). Seeded, so a failure
// is reproducible.

/** Mulberry32: a small seeded generator of floats in [0, 1). */
export function randomSource(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Names follow the format's stricter rule (one script besides Latin with Chinese or Japanese, no space at
// either end): each name draws from one of these sets; titles and descriptions take every piece.
const NAME_SCRIPTS = [
  ['ball', 'Rad', '<img src=x onerror=alert(1)>', '</script>', '"quoted"', "it's", 'a&b=c#d', '%20', '€', '😀', '\\', '/', '+', '$', ' ', '~', 'x'],
  ['Ω', 'αβ', 'λ', '<', '&', '#', '%20'],
  ['שלום', 'ם', '"', '&', '#'],
  ['日本', 'ball', '&', '#', '%20', '😀'],
];
const PIECES = ['ball', 'Rad', '<img src=x onerror=alert(1)>', '</script>', '"quoted"', "it's", 'a&b=c#d', '%20',
  '€', 'Ω', '😀', 'שלום', '日本', '\\', '/', '+', '$', ' ', '~', 'x'];

export function randomGenerator(seed) {
  const random = randomSource(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  // Numbers as a scenario holds them: plain decimals, long doubles, tiny and large exponents.
  const number = (lo, hi) => {
    const kind = random();
    const x = lo + (hi - lo) * random();
    if (kind < 0.3) return Math.round(x * 100) / 100;
    if (kind < 0.9) return x;
    return Math.abs(x) < 1e-300 ? 0 : x * 10 ** int(-20, 0);
  };
  const positive = (lo, hi) => Math.max(lo, number(lo, hi));
  const vec = (r) => [number(-r, r), number(-r, r)];
  // Text of at most `maxBytes` UTF-8 bytes (the format counts bytes), cut between code points.
  const text = (maxBytes) => {
    let out = '';
    let bytes = 0;
    while (random() < 0.8) {
      const piece = pick(PIECES);
      const size = new TextEncoder().encode(piece).length;
      if (bytes + size > maxBytes) break;
      out += piece;
      bytes += size;
    }
    return out;
  };

  // A name of at most `maxBytes` bytes from one script set, with no space at either end.
  const name = (maxBytes) => {
    const pieces = pick(NAME_SCRIPTS);
    let out = '';
    while (random() < 0.8) {
      const piece = pick(pieces);
      if (new TextEncoder().encode(out + piece).length > maxBytes) break;
      out += piece;
    }
    return out.trim();
  };

  function shape() {
    switch (int(0, 4)) {
      case 0: return { type: 'disk', radius: positive(0.01, 0.5) };
      case 1: return { type: 'box', width: positive(0.01, 1), height: positive(0.01, 1) };
      case 2: return { type: 'rod', length: positive(0.05, 2), radius: random() < 0.2 ? 0 : positive(0.005, 0.1) };
      case 3: return { type: 'point', radius: positive(0.01, 0.2) };
      default: return { type: 'wheel', radius: positive(0.05, 1), spokes: int(3, 64) };
    }
  }

  /** A random scenario document (valid as far as the format goes; the tests check it with the engine). */
  function scenario() {
    const bodyCount = int(1, 6);
    const bodies = Array.from({ length: bodyCount }, (_, i) => {
      const body = { name: `${name(56)}#${i}`, shape: shape(), mass: positive(0.1, 10), position: [number(-1, 1), 3 + 3 * i] };
      if (random() < 0.5) body.angle = number(-3, 3);
      if (random() < 0.5) body.velocity = vec(3);
      if (random() < 0.3) body.angular_velocity = number(-5, 5);
      if (random() < 0.3) body.color = pick(['#d04030', 'steelblue', 'rgb(200, 60, 40)', '']);
      return body;
    });
    const planes = random() < 0.8 ? [{ name: name(10) || "floor", point: [0, 0], normal: [number(-0.3, 0.3), 1] }] : [];
    const contacts = [];
    for (const body of bodies) {
      if (planes.length && random() < 0.7) {
        const contact = { type: 'body_plane', body: body.name, plane: planes[0].name };
        if (random() < 0.5) contact.e = number(0, 1);
        if (random() < 0.2) contact.stick = true;
        contacts.push(contact);
      }
    }
    const disks = bodies.filter((b) => b.shape.type === 'disk');
    if (disks.length >= 2) contacts.push({ type: 'disk_disk', body_a: disks[0].name, body_b: disks[1].name, name: name(12) });
    if (random() < 0.3) contacts.push({ type: 'rope', body_a: 'world', anchor_a: [0, 8], body_b: bodies[0].name, length: positive(8, 12) });
    const doc = { oblique: 1, title: text(60), description: `${text(200)}\nSecond line\t${text(40)}`, bodies, planes, contacts };
    if (random() < 0.5) doc.gravity = [0, -number(1, 20)];
    if (random() < 0.5) doc.restitution = number(0, 1);
    if (random() < 0.3) doc.nu = positive(0.1, 10);
    if (random() < 0.5) doc.duration = positive(0.5, 20);
    if (random() < 0.3) doc.forces = [{ body: bodies[0].name, force: vec(5), torque: number(-1, 1) }];
    if (random() < 0.3) doc.impulses = [{ body: bodies[0].name, time: positive(0, 2), impulse: vec(2), angular: number(-1, 1) }];
    if (random() < 0.3) doc.integrator = { step: pick([0.001, 0.0005, 0.002]), rest_speed: 0.001 };
    if (random() < 0.5) doc.view = { center: vec(2), width: positive(0.5, 10), trails: random() < 0.5 };
    return doc;
  }

  /** A random share state around a scenario document. */
  function state(doc) {
    const out = random() < 0.5 ? { scenario: doc } : { builtin: pick(['bouncing-ball', 'four-bar', 'newtons-cradle']) };
    if (random() < 0.5) out.e = number(0, 1);
    if (random() < 0.4) out.e_i = { [String(int(0, 5))]: number(0, 1), [String(int(0, 255))]: number(0, 1) };
    if (random() < 0.3) out.nu = positive(0.01, 100);
    if (random() < 0.7) out.t = number(0, 60);
    if (random() < 0.5) out.impact = int(0, 500);
    if (random() < 0.5) out.impacts = int(0, 5000);
    // A run shown at an earlier moment than it had got to, with changes of e and ν made on the way.
    if (random() < 0.3) out.horizon = (out.t ?? 0) + number(0, 30);
    if (random() < 0.3) out.horizon_impacts = (out.impacts ?? 0) + int(0, 50);
    if (random() < 0.25) {
      const end = out.horizon ?? out.t ?? 0;
      let at = { t: 0, impacts: 0 };
      out.changes = Array.from({ length: int(1, 4) }, () => {
        at = { t: Math.min(end, at.t + number(0, end / 3)), impacts: at.impacts + int(0, 3) };
        const kind = random();
        if (kind < 0.4) return { ...at, e: number(0, 1) };
        if (kind < 0.7) return { ...at, contact: int(0, 255), e: number(0, 1) };
        return { ...at, nu: random() < 0.3 ? null : positive(0.01, 100) };
      });
    }
    if (random() < 0.5) out.speed = pick([0.1, 0.25, 0.5, 1, 2, 4, 8, 16]);
    if (random() < 0.5) out.tab = pick(['playground', 'lab', 'editor']);
    if (random() < 0.3) out.trails = random() < 0.5;
    if (random() < 0.3) out.matrix = pick(['P', 'Mc', 'E_tilde', 'Q']);
    if (random() < 0.2) out.lab = { M: [[1, 0], [0, number(0.5, 3)]], A: [[-1, 1]], qd: [number(-3, 3), number(-3, 3)], e: number(0, 1) };
    return out;
  }

  return { scenario, state, random, int };
}
