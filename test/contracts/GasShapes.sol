// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.26;

/// Calls whose gas use does not say how much gas they need: inner calls that fail by design burn what they are
/// given, and a call that forwards a fixed amount needs more than it uses.
contract GasShapes {
    uint256 public value;

    function set(uint256 v) public {
        value = v;
    }

    /// A staticcall to a function that writes fails, using all the gas it was given.
    function staticWrite() external view returns (bool ok) {
        (ok,) = address(this).staticcall(abi.encodeWithSelector(this.set.selector, 1));
    }

    /// The bn256 addition precompile given a point off the curve fails, using all the gas it was given.
    function badPrecompile() external view returns (bool ok) {
        (ok,) = address(6).staticcall(abi.encode(1, 1, 1, 1));
    }

    /// Forwards a fixed 100,000 gas to a write, which uses less.
    function forwardFixed(uint256 v) external returns (bool ok) {
        (ok,) = address(this).call{gas: 100_000}(abi.encodeWithSelector(this.set.selector, v));
    }
}
