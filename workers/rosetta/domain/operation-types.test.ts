import { describe, expect, it } from 'vitest';
import { OPERATION_STATUSES, OPERATION_TYPES, operationStatus, operationType } from './operation-types.ts';

describe('operation types and statuses as the reference names them', () => {
  it('names a transaction by its body field up to 57, UNKNOWN beyond and for no body', () => {
    expect(operationType(14)).toBe('CRYPTOTRANSFER');
    expect(operationType(11)).toBe('CRYPTOCREATEACCOUNT');
    expect(operationType(45)).toBe('TOKENFEESCHEDULEUPDATE');
    expect(operationType(57)).toBe('TOKENREJECT');
    expect(operationType(58)).toBe('UNKNOWN');
    expect(operationType(30)).toBe('UNKNOWN');
    expect(operationType(0)).toBe('UNKNOWN');
  });

  it('names a result by its code up to 337, GENERAL_ERROR for a later or unnamed one', () => {
    expect(operationStatus(22)).toBe('SUCCESS');
    expect(operationStatus(21)).toBe('UNKNOWN');
    expect(operationStatus(337)).not.toBe('GENERAL_ERROR');
    expect(operationStatus(338)).toBe('GENERAL_ERROR');
    expect(operationStatus(120)).toBe('GENERAL_ERROR');
  });

  it('lists every type once with FEE last, and every status once with the three successful ones', () => {
    expect(new Set(OPERATION_TYPES).size).toBe(OPERATION_TYPES.length);
    expect(OPERATION_TYPES).toContain('UNKNOWN');
    expect(OPERATION_TYPES.at(-1)).toBe('FEE');
    // UNKNOWN, the 50 body fields from 7 to 57 (30 is reserved), FEE
    expect(OPERATION_TYPES).toHaveLength(52);
    expect(new Set(OPERATION_STATUSES.map((s) => s.status)).size).toBe(OPERATION_STATUSES.length);
    expect(OPERATION_STATUSES.filter((s) => s.successful).map((s) => s.status)).toEqual([
      'SUCCESS',
      'FEE_SCHEDULE_FILE_PART_UPLOADED',
      'SUCCESS_BUT_MISSING_EXPECTED_OPERATION',
    ]);
    expect(OPERATION_STATUSES[0]).toEqual({ status: 'GENERAL_ERROR', successful: false });
  });
});
