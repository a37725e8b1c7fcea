// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.26;

/// ERC-20 as an HTS token's address answers it (the node's token redirect).
interface IERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
    function balanceOf(address account) external view returns (uint256);
}

/// A client's contract that uses the Hedera Token Service system contract (0x167) the way dapps do: through its
/// classic functions, for its own account and for tokens whose keys name it, reading each response code. The local
/// network's tests deploy it with the SDK.
contract HtsClient {
    address private constant HTS = address(0x167);
    int64 private constant SUCCESS = 22;
    uint256 private constant SUPPLY_KEY = 16;

    struct KeyValue {
        bool inheritAccountKey;
        address contractId;
        bytes ed25519;
        bytes ECDSA_secp256k1;
        address delegatableContractId;
    }

    struct TokenKey {
        uint256 keyType;
        KeyValue key;
    }

    struct Expiry {
        int64 second;
        address autoRenewAccount;
        int64 autoRenewPeriod;
    }

    struct HederaToken {
        string name;
        string symbol;
        address treasury;
        string memo;
        bool tokenSupplyType;
        int64 maxSupply;
        bool freezeDefault;
        TokenKey[] tokenKeys;
        Expiry expiry;
    }

    error Failed(int64 responseCode);

    /// Associates itself with `token` while it is being created, unless `token` is the zero address.
    constructor(address token) {
        if (token != address(0)) {
            int64 responseCode = associate(token);
            if (responseCode != SUCCESS) revert Failed(responseCode);
        }
    }

    function code(bytes memory output) private pure returns (int64) {
        return abi.decode(output, (int64));
    }

    function call(bytes memory data) private returns (bytes memory) {
        (bool ok, bytes memory output) = HTS.call(data);
        require(ok, "system contract call failed");
        return output;
    }

    function associate(address token) public returns (int64) {
        return code(call(abi.encodeWithSignature("associateToken(address,address)", address(this), token)));
    }

    function mint(address token, int64 amount) public returns (int64 responseCode, int64 newTotalSupply) {
        bytes[] memory metadata;
        bytes memory output = call(abi.encodeWithSignature("mintToken(address,int64,bytes[])", token, amount, metadata));
        (responseCode, newTotalSupply, ) = abi.decode(output, (int64, int64, int64[]));
    }

    /// Sends units of `from` (this contract, or an account whose key names it); answers the response code without
    /// reverting.
    function send(address token, address from, address to, int64 amount) public returns (int64) {
        bytes memory data = abi.encodeWithSignature(
            "transferToken(address,address,address,int64)",
            token,
            from,
            to,
            amount
        );
        return code(call(data));
    }

    /// Sends units the contract holds.
    function transfer(address token, address to, int64 amount) public returns (int64) {
        return send(token, address(this), to, amount);
    }

    /// As `transfer`, but reverts with `Failed(code)` when the transfer does not succeed.
    function transferOrRevert(address token, address to, int64 amount) external returns (int64) {
        int64 responseCode = transfer(token, to, amount);
        if (responseCode != SUCCESS) revert Failed(responseCode);
        return responseCode;
    }

    /// Mints, then reverts: the mint is undone with the transaction.
    function mintThenRevert(address token, int64 amount) external {
        (int64 responseCode, ) = mint(token, amount);
        revert Failed(responseCode);
    }

    /// Mints to the treasury (this contract, for a token it created) and sends the units on, in one transaction.
    function mintAndTransfer(address token, address to, int64 amount) external returns (int64) {
        (int64 minted, ) = mint(token, amount);
        if (minted != SUCCESS) revert Failed(minted);
        int64 sent = transfer(token, to, amount);
        if (sent != SUCCESS) revert Failed(sent);
        return sent;
    }

    /// Whether `token` is a token, read with a static call.
    function isToken(address token) external view returns (int64 responseCode, bool known) {
        (bool ok, bytes memory output) = HTS.staticcall(abi.encodeWithSignature("isToken(address)", token));
        require(ok, "system contract call failed");
        return abi.decode(output, (int64, bool));
    }

    /// Sends units the contract holds through the token's ERC-20 interface.
    function ercTransfer(address token, address to, uint256 amount) external returns (bool) {
        return IERC20(token).transfer(to, amount);
    }

    /// An account's balance through the token's ERC-20 interface.
    function ercBalance(address token, address account) external view returns (uint256) {
        return IERC20(token).balanceOf(account);
    }

    /// A fungible token with this contract as treasury and supply key; the value sent pays the creation fee.
    function createToken(string memory name, string memory symbol) external payable returns (int64, address) {
        TokenKey[] memory keys = new TokenKey[](1);
        keys[0] = TokenKey(SUPPLY_KEY, KeyValue(false, address(this), "", "", address(0)));
        HederaToken memory token = HederaToken(
            name,
            symbol,
            address(this),
            "",
            false,
            0,
            false,
            keys,
            Expiry(0, address(this), 7776000)
        );
        bytes memory data = abi.encodeWithSignature(
            "createFungibleToken((string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],(int64,address,int64)),int64,int32)",
            token,
            int64(0),
            int32(2)
        );
        (bool ok, bytes memory output) = HTS.call{value: msg.value}(data);
        require(ok, "system contract call failed");
        return abi.decode(output, (int64, address));
    }
}
