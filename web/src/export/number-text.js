// Numbers written as the `oblique` CLI writes them (nlohmann::json's dump of a double): the shortest
// digits that read back to the same double, laid out like printf's %g but with a ".0" on whole numbers
// (1.0, 120.0), plain decimals from 1e-4 to 1e15 (0.00012), an exponent of at least two digits outside
// them (1e-05, 2.5e+16). So a CSV made in the page reads like the CLI's, value for value. Pure.

/** A double as the CLI writes it ('' for null, as the CLI writes γ when K⁻ = 0). */
export function cliNumber(x) {
  if (x === null || x === undefined) return '';
  if (!Number.isFinite(x)) throw new Error(`a number to write must be finite, got ${x}`);
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // Shortest round-trip digits d₁d₂…d_k and the exponent of d₁ (toExponential() with no argument).
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const k = digits.length;
  const n = Number(exponent) + 1;  // where the decimal point goes, counted from the first digit
  let body;
  if (k <= n && n <= 15) body = `${digits}${'0'.repeat(n - k)}.0`;
  else if (n > 0 && n <= 15) body = `${digits.slice(0, n)}.${digits.slice(n)}`;
  else if (n > -4 && n <= 0) body = `0.${'0'.repeat(-n)}${digits}`;
  else {
    const e = n - 1;
    const magnitude = String(Math.abs(e)).padStart(2, '0');
    body = `${k === 1 ? digits : `${digits[0]}.${digits.slice(1)}`}e${e < 0 ? '-' : '+'}${magnitude}`;
  }
  return sign + body;
}

/** An integer (an index) as the CLI writes it. */
export function cliInteger(i) {
  return String(i);
}
