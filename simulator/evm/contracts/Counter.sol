// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.26;

/// A counter with a per-caller tally: each call reads and writes storage and logs who counted.
contract Counter {
    uint256 public count;
    mapping(address => uint256) public countedBy;

    event Counted(address indexed by, uint256 indexed total, uint256 step);

    constructor(uint256 start) {
        count = start;
    }

    function increment(uint256 step) external returns (uint256) {
        require(step > 0 && step <= 1000, "step out of range");
        count += step;
        countedBy[msg.sender] += step;
        emit Counted(msg.sender, count, step);
        return count;
    }

    function reset() external {
        require(countedBy[msg.sender] > 0, "only counters may reset");
        count = 0;
    }
}
