//go:build race

package web_test

// raceDetector is whether the tests run under the race detector, whose
// shadow memory multiplies a process's resident memory.
const raceDetector = true
