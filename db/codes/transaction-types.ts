/**
 * Transaction types as the schema stores them (`transaction.type`: the field number of the body in HAPI's
 * TransactionBody) and as the API names them (`"name": "CRYPTOTRANSFER"`, `transactiontype=cryptotransfer`).
 */
const TRANSACTION_TYPES: ReadonlyMap<number, string> = new Map([
  [7, 'CONTRACTCALL'],
  [8, 'CONTRACTCREATEINSTANCE'],
  [9, 'CONTRACTUPDATEINSTANCE'],
  [10, 'CRYPTOADDLIVEHASH'],
  [11, 'CRYPTOCREATEACCOUNT'],
  [12, 'CRYPTODELETE'],
  [13, 'CRYPTODELETELIVEHASH'],
  [14, 'CRYPTOTRANSFER'],
  [15, 'CRYPTOUPDATEACCOUNT'],
  [16, 'FILEAPPEND'],
  [17, 'FILECREATE'],
  [18, 'FILEDELETE'],
  [19, 'FILEUPDATE'],
  [20, 'SYSTEMDELETE'],
  [21, 'SYSTEMUNDELETE'],
  [22, 'CONTRACTDELETEINSTANCE'],
  [23, 'FREEZE'],
  [24, 'CONSENSUSCREATETOPIC'],
  [25, 'CONSENSUSUPDATETOPIC'],
  [26, 'CONSENSUSDELETETOPIC'],
  [27, 'CONSENSUSSUBMITMESSAGE'],
  [28, 'UNCHECKEDSUBMIT'],
  [29, 'TOKENCREATION'],
  [31, 'TOKENFREEZE'],
  [32, 'TOKENUNFREEZE'],
  [33, 'TOKENGRANTKYC'],
  [34, 'TOKENREVOKEKYC'],
  [35, 'TOKENDELETION'],
  [36, 'TOKENUPDATE'],
  [37, 'TOKENMINT'],
  [38, 'TOKENBURN'],
  [39, 'TOKENWIPE'],
  [40, 'TOKENASSOCIATE'],
  [41, 'TOKENDISSOCIATE'],
  [42, 'SCHEDULECREATE'],
  [43, 'SCHEDULEDELETE'],
  [44, 'SCHEDULESIGN'],
  [45, 'TOKENFEESCHEDULEUPDATE'],
  [46, 'TOKENPAUSE'],
  [47, 'TOKENUNPAUSE'],
  [48, 'CRYPTOAPPROVEALLOWANCE'],
  [49, 'CRYPTODELETEALLOWANCE'],
  [50, 'ETHEREUMTRANSACTION'],
  [51, 'NODESTAKEUPDATE'],
  [52, 'UTILPRNG'],
  [53, 'TOKENUPDATENFTS'],
  [54, 'NODECREATE'],
  [55, 'NODEUPDATE'],
  [56, 'NODEDELETE'],
  [57, 'TOKENREJECT'],
  [58, 'TOKENAIRDROP'],
  [59, 'TOKENCANCELAIRDROP'],
  [60, 'TOKENCLAIMAIRDROP'],
  [74, 'ATOMICBATCH'],
  [75, 'HOOKSTORE'],
  [76, 'HOOKDISPATCH'],
  [77, 'LEDGERIDPUBLICATION'],
  [78, 'REGISTEREDNODECREATE'],
  [79, 'REGISTEREDNODEUPDATE'],
  [80, 'REGISTEREDNODEDELETE'],
]);

const TYPE_BY_NAME: ReadonlyMap<string, number> = new Map([...TRANSACTION_TYPES].map(([id, name]) => [name, id]));

export const SCHEDULE_CREATE_TYPE = 42;

/** The type's name, or `UNKNOWN` for a type this table does not know. */
export function transactionTypeName(type: number): string {
  return TRANSACTION_TYPES.get(type) ?? 'UNKNOWN';
}

/** The type id of a name, case-insensitively; undefined for an unknown name. */
export function transactionTypeByName(name: string): number | undefined {
  return TYPE_BY_NAME.get(name.toUpperCase());
}
