import { transactionTypeByName } from '../../db/codes/transaction-types.ts';
import type { ParamParser } from './filters.ts';

/**
 * `transactiontype`: a transaction type name in any letter case (`cryptotransfer`), under any operator (the
 * operator is ignored: every value given is one more type that matches). Returns the type id.
 */
export const transactionTypeParam: ParamParser<number> = (value) => transactionTypeByName(value);

/** `result`: `success` or `fail` (the query parser has lowercased it), under any operator, which is ignored. */
export const transactionResultParam: ParamParser<'success' | 'fail'> = (value) =>
  value === 'success' || value === 'fail' ? value : undefined;

/**
 * `type` of `/transactions`: `credit` or `debit` in any letter case, under any operator, which is ignored. The value
 * is returned as given: the reference compares repeated values by their exact text.
 */
export const transferTypeParam: ParamParser<string> = (value) => (/^(credit|debit)$/i.test(value) ? value : undefined);
