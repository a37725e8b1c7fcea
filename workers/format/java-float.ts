import '../json.ts';

/**
 * A Java `float` written as the reference's Java process writes it (`Float.toString`): the shortest decimal that
 * reads back as the same float, with at least one fractional digit (`1.0`), in computerized scientific notation
 * below 10^-3 and from 10^7 on (`1.0E-4`). Returned as raw JSON so the text reaches the client unchanged.
 */
export function javaFloatJson(value: number): unknown {
  return JSON.rawJSON(javaFloatString(value));
}

export function javaFloatString(value: number): string {
  const float = Math.fround(value);
  if (Number.isNaN(float)) return 'NaN';
  if (!Number.isFinite(float)) return float > 0 ? 'Infinity' : '-Infinity';
  if (float === 0) return Object.is(float, -0) ? '-0.0' : '0.0';

  // shortest digits that round-trip through float32
  let digits = '';
  let exponent = 0;
  for (let precision = 1; precision <= 9; precision++) {
    const text = Math.abs(float).toExponential(precision - 1);
    if (Math.fround(Number(text)) === Math.abs(float)) {
      const [mantissa = '', exp = '0'] = text.split('e');
      digits = mantissa.replace('.', '').replace(/0+$/, '') || '0';
      exponent = Number(exp);
      break;
    }
  }
  const sign = float < 0 ? '-' : '';
  const magnitude = Math.abs(float);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    // plain notation: the decimal point after exponent + 1 digits
    const point = exponent + 1;
    if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
    const integer = digits.slice(0, point).padEnd(point, '0');
    const fraction = digits.slice(point) || '0';
    return `${sign}${integer}.${fraction}`;
  }
  const fraction = digits.slice(1) || '0';
  return `${sign}${digits[0]}.${fraction}E${exponent}`;
}
