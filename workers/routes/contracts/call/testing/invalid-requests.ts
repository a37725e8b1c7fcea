/** Requests the call route refuses, shared by the unit tests of its checks and the tests through workerd. */

/** A request breaking the rule of every field it has, and the details the reference answers it with, sorted. */
export const EVERY_FIELD_INVALID = {
  request: { to: '0x', from: '0x', value: -1, gas: -1, gasPrice: -1 },
  details: [
    'from field invalid hexadecimal string',
    'gas field must be greater than or equal to 21000',
    'gasPrice field must be greater than or equal to 0',
    'to field invalid hexadecimal string',
    'value field must be greater than or equal to 0',
  ],
} as const;

/** Texts that are no address for `to` or `from`: too short, too long, not hexadecimal, without `0x`. */
export const INVALID_ADDRESSES = [
  ' ',
  '0x',
  '0xghijklmno',
  `0x${'1'.repeat(39)}`,
  `0x${'1'.repeat(41)}`,
  `0x${'1'.repeat(38)}Z1`,
  '00000000001239847e',
] as const;
