// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.26;

/// What the factory makes: a constructor that stores its argument, and reverts with a reason for 13.
contract Child {
    uint256 public value;
    address public maker;

    constructor(uint256 v) payable {
        require(v != 13, "unlucky");
        value = v;
        maker = msg.sender;
    }
}

/// A contract that creates contracts with CREATE and CREATE2, and survives a failed creation.
contract Factory {
    event Made(address child);

    function make(uint256 v) external returns (address) {
        Child child = new Child(v);
        emit Made(address(child));
        return address(child);
    }

    function makeTwo(uint256 v) external returns (address first, address second) {
        first = address(new Child(v));
        second = address(new Child(v + 1));
    }

    function makeAndRead(uint256 v) external returns (uint256, address) {
        Child child = new Child(v);
        return (child.value(), child.maker());
    }

    function make2(bytes32 salt, uint256 v) external returns (address) {
        return address(new Child{salt: salt}(v));
    }

    /// The second CREATE2 with the same salt and init code lands on the first one's address.
    function make2Twice(bytes32 salt, uint256 v) external returns (address, address) {
        address first = address(new Child{salt: salt}(v));
        return (first, address(new Child{salt: salt}(v)));
    }

    /// A CREATE2 takes an entity number too: the CREATE after it gets the next one.
    function make2ThenMake(bytes32 salt, uint256 v) external returns (address, address) {
        address first = address(new Child{salt: salt}(v));
        return (first, address(new Child(v)));
    }

    /// A failed creation gives its entity number back: the next one takes it.
    function tryMakeThenMake(uint256 v) external returns (bool made, address next) {
        try new Child(v) returns (Child) {
            made = true;
        } catch {
            made = false;
        }
        next = address(new Child(1));
    }

    function predict2(bytes32 salt, uint256 v) external view returns (address) {
        bytes memory init = abi.encodePacked(type(Child).creationCode, abi.encode(v));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, keccak256(init))))));
    }
}
