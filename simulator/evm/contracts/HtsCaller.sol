// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.26;

/// Calls the Hedera Token Service system contract (0x167) with the data it is called with, as itself, and answers
/// exactly what the service answered (its revert data when the service reverted): the token operations a contract
/// runs on its own account.
contract HtsCaller {
    address private constant HTS = address(0x167);

    fallback(bytes calldata input) external payable returns (bytes memory) {
        (bool ok, bytes memory output) = HTS.call{value: msg.value}(input);
        if (!ok) {
            assembly {
                revert(add(output, 32), mload(output))
            }
        }
        return output;
    }
}
