/**
 * v6 signature files: byte 6 then a protobuf SignatureFile whose two SignatureObjects sign the file hash and
 * the metadata hash (SHA384withRSA over the 48 hash bytes; `checksum` = 101 − signature length).
 */
import { hapi } from '../../proto/hapi.ts';
import { type SimNode, signHash } from './node-keys.ts';

const SHA_384_WITH_RSA = 1;
const SHA_384 = 1;

function signatureObject(node: SimNode, hash: Uint8Array) {
  const signature = signHash(node, hash);
  return {
    type: SHA_384_WITH_RSA,
    length: signature.length,
    checksum: 101 - signature.length,
    signature,
    hash_object: { algorithm: SHA_384, length: hash.length, hash },
  };
}

export function buildSignatureFile(node: SimNode, fileHash: Uint8Array, metadataHash: Uint8Array): Uint8Array {
  const body = hapi()
    .SignatureFile.encode({
      file_signature: signatureObject(node, fileHash),
      metadata_signature: signatureObject(node, metadataHash),
    })
    .finish();
  const out = new Uint8Array(1 + body.length);
  out[0] = 6;
  out.set(body, 1);
  return out;
}
