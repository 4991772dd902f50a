package worker

import "time"

// monitorPeriod bounds how long the runtime's monitor thread (sysmon)
// sleeps while the worker is idle; see wakeMonitor.
const monitorPeriod = 50 * time.Millisecond

// wakeMonitor keeps a timer pending in the worker at all times, so that
// the runtime's monitor thread never sleeps longer than monitorPeriod.
//
// Why: the worker reads requests and writes events with raw system calls
// (rawReader, rawWriter, pollNow), which, unlike ordinary ones, do not
// wake that thread when a cell starts, so it stays asleep through a
// trivial cell instead of polling every 20 µs (45-110 µs of CPU and three
// context switches a cell; bench/kernel/goclient -quick, paired: see
// package rawio).
// But the thread is also what preempts goroutines that keep every
// processor busy without allocating or making a system call; asleep, it
// would leave the worker's request reader (interrupts) without a
// processor for good (tests/test_faults.py,
// test_interrupt_when_every_processor_spins). Asleep with all processors
// idle, it wakes for the next pending timer (runtime/proc.go, sysmon and
// timeSleepUntil), so with this ticker it is awake at most monitorPeriod
// after such a cell starts, and preempts it 10 ms later. An idle worker
// pays a wake-up every monitorPeriod.
func wakeMonitor() {
	t := time.NewTicker(monitorPeriod)
	for range t.C {
	}
}
