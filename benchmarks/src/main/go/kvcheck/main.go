// kvcheck judges a history of the key-value sample's operations for linearizability with Porcupine.
//
// Usage: kvcheck [-html FILE] [-timeout SECONDS] HISTORY
//
// HISTORY holds one JSON object per line, one per operation, as ./bftws nemesis's clients write it:
//
//	{"process":3,"op":"cas","key":"k1","expected":4,"value":9,"call":120,"return":250,"outcome":"ok","swapped":true,"current":9}
//
// op is get, put or cas; for get the result is "found" and "result", for put "previous" (absent: there was none),
// for cas "swapped" and "current" (absent: the key has no value). A cas without "expected" swaps only when the key
// has no value. call and return are nanoseconds on one clock. outcome is ok (the result is known), failed (the call
// certainly had no effect: left out) or unknown (it timed out: it may or may not have taken effect, at any time after
// its call, so its return is taken as infinite and its result as unconstrained).
//
// It prints "linearizable: yes", "linearizable: no" or "linearizable: unknown (timed out)" and exits 0, 1 or 3;
// 2 for a bad history or command line. With -html it writes Porcupine's visualization when the answer is no.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

// record is one line of the history.
type record struct {
	Process  *int   `json:"process"`
	Op       string `json:"op"`
	Key      string `json:"key"`
	Value    *int64 `json:"value"`
	Expected *int64 `json:"expected"`
	Call     *int64 `json:"call"`
	Return   *int64 `json:"return"`
	Outcome  string `json:"outcome"`
	Found    *bool  `json:"found"`
	Result   *int64 `json:"result"`
	Previous *int64 `json:"previous"`
	Swapped  *bool  `json:"swapped"`
	Current  *int64 `json:"current"`
}

// input is what an operation asks for.
type input struct {
	op          string
	key         string
	value       int64
	hasExpected bool
	expected    int64
}

// output is what it answered; known is false for an operation whose outcome is unknown.
type output struct {
	known   bool
	found   bool  // get: the key had a value; put: there was a previous value; cas: the key has a value now
	value   int64 // get: the value; put: the previous value; cas: the current value
	swapped bool
}

// cell is one key's state: whether it has a value, and which.
type cell struct {
	present bool
	value   int64
}

func step(state, in, out interface{}) (bool, interface{}) {
	s := state.(cell)
	i := in.(input)
	o := out.(output)
	switch i.op {
	case "get":
		if !o.known {
			return true, s
		}
		return o.found == s.present && (!s.present || o.value == s.value), s
	case "put":
		next := cell{true, i.value}
		if !o.known {
			return true, next
		}
		return o.found == s.present && (!s.present || o.value == s.value), next
	default: // cas
		matches := s.present == i.hasExpected && (!s.present || s.value == i.expected)
		next := s
		if matches {
			next = cell{true, i.value}
		}
		if !o.known {
			return true, next
		}
		return o.swapped == matches && o.found == next.present && (!next.present || o.value == next.value), next
	}
}

func describeOperation(in, out interface{}) string {
	i := in.(input)
	o := out.(output)
	var call string
	switch i.op {
	case "get":
		call = fmt.Sprintf("get(%s)", i.key)
	case "put":
		call = fmt.Sprintf("put(%s, %d)", i.key, i.value)
	default:
		if i.hasExpected {
			call = fmt.Sprintf("cas(%s, %d -> %d)", i.key, i.expected, i.value)
		} else {
			call = fmt.Sprintf("cas(%s, none -> %d)", i.key, i.value)
		}
	}
	if !o.known {
		return call + " -> ?"
	}
	value := "none"
	if o.found {
		value = fmt.Sprint(o.value)
	}
	if i.op == "cas" {
		return fmt.Sprintf("%s -> swapped %t, now %s", call, o.swapped, value)
	}
	return call + " -> " + value
}

func describeState(state interface{}) string {
	s := state.(cell)
	if !s.present {
		return "none"
	}
	return fmt.Sprint(s.value)
}

// byKey checks each key on its own: operations on different keys never constrain each other.
func byKey(history []porcupine.Operation) [][]porcupine.Operation {
	groups := map[string][]porcupine.Operation{}
	for _, op := range history {
		k := op.Input.(input).key
		groups[k] = append(groups[k], op)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([][]porcupine.Operation, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, groups[k])
	}
	return parts
}

var model = porcupine.Model{
	Partition:         byKey,
	Init:              func() interface{} { return cell{} },
	Step:              step,
	Equal:             func(a, b interface{}) bool { return a.(cell) == b.(cell) },
	DescribeOperation: describeOperation,
	DescribeState:     describeState,
}

// read parses the history; an error names the line and what is wrong with it.
func read(path string) ([]porcupine.Operation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ops []porcupine.Operation
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; scanner.Scan(); n++ {
		line := scanner.Bytes()
		if len(line) == 0 {
			continue
		}
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: not a JSON object: %v", path, n, err)
		}
		op, keep, err := operation(r)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if keep {
			ops = append(ops, op)
		}
	}
	if err := scanner.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return ops, nil
}

func operation(r record) (porcupine.Operation, bool, error) {
	var none porcupine.Operation
	if r.Process == nil || *r.Process < 0 {
		return none, false, fmt.Errorf("no process (a whole number from 0)")
	}
	if r.Key == "" {
		return none, false, fmt.Errorf("no key")
	}
	if r.Call == nil {
		return none, false, fmt.Errorf("no call time")
	}
	in := input{op: r.Op, key: r.Key}
	switch r.Op {
	case "get":
	case "put", "cas":
		if r.Value == nil {
			return none, false, fmt.Errorf("%s without a value", r.Op)
		}
		in.value = *r.Value
		if r.Op == "cas" && r.Expected != nil {
			in.hasExpected, in.expected = true, *r.Expected
		}
	default:
		return none, false, fmt.Errorf("op is '%s', not get, put or cas", r.Op)
	}
	ret := int64(math.MaxInt64)
	out := output{}
	switch r.Outcome {
	case "failed":
		return none, false, nil
	case "unknown":
	case "ok":
		if r.Return == nil || *r.Return < *r.Call {
			return none, false, fmt.Errorf("an ok operation needs a return time at or after its call")
		}
		ret = *r.Return
		out.known = true
		switch r.Op {
		case "get":
			if r.Found == nil {
				return none, false, fmt.Errorf("an ok get without found")
			}
			out.found = *r.Found
			if out.found {
				if r.Result == nil {
					return none, false, fmt.Errorf("an ok get that found a value but has no result")
				}
				out.value = *r.Result
			}
		case "put":
			if r.Previous != nil {
				out.found, out.value = true, *r.Previous
			}
		case "cas":
			if r.Swapped == nil {
				return none, false, fmt.Errorf("an ok cas without swapped")
			}
			out.swapped = *r.Swapped
			if r.Current != nil {
				out.found, out.value = true, *r.Current
			}
		}
	default:
		return none, false, fmt.Errorf("outcome is '%s', not ok, failed or unknown", r.Outcome)
	}
	return porcupine.Operation{ClientId: *r.Process, Input: in, Call: *r.Call, Output: out, Return: ret}, true, nil
}

func main() {
	html := flag.String("html", "", "write Porcupine's visualization here when the history is not linearizable")
	timeout := flag.Int("timeout", 600, "give up (answer unknown) after this many seconds; 0: never")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: kvcheck [-html FILE] [-timeout SECONDS] HISTORY")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	ops, err := read(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "kvcheck:", err)
		os.Exit(2)
	}
	result, info := porcupine.CheckOperationsVerbose(model, ops, time.Duration(*timeout)*time.Second)
	switch result {
	case porcupine.Ok:
		fmt.Printf("linearizable: yes (%d operations)\n", len(ops))
	case porcupine.Illegal:
		fmt.Printf("linearizable: no (%d operations)\n", len(ops))
		if *html != "" {
			if err := porcupine.VisualizePath(model, info, *html); err != nil {
				fmt.Fprintln(os.Stderr, "kvcheck: the visualization was not written:", err)
			}
		}
		os.Exit(1)
	default:
		fmt.Printf("linearizable: unknown (the check timed out after %d s, %d operations)\n", *timeout, len(ops))
		os.Exit(3)
	}
}
