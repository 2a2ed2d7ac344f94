package wshub

// LaneOf is laneOf, for the tests to pick visit sessions routed side by side.
var LaneOf = laneOf
