package sams

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// latency measures, on the Go simulator, the read latency of the SAMS
// memory (cycles from the cycle a read is accepted to the cycle its
// response is valid) and its write latency (the smallest distance in
// cycles at which a read accepted after a write returns what it wrote).
func latency(q int) (read, write int, err error) {
	d, err := table42Config("sams", q).Build("sams")
	if err != nil {
		return 0, 0, err
	}
	s := hdl.NewSim(d)
	set := func(name string, v uint64) {
		if err == nil {
			err = s.SetU(name, v)
		}
	}
	get := func(name string) uint64 {
		v, gerr := s.GetU(name)
		if err == nil {
			err = gerr
		}
		return v
	}
	request := func(write bool, data uint64) {
		set("req_valid", 1)
		set("req_write", 0)
		if write {
			set("req_write", 1)
		}
		set("req_mode", 0)
		set("req_base", 8)
		for i := range 1 << uint(q) {
			set(fmt.Sprintf("req_mask_%d", i), 1)
			set(fmt.Sprintf("req_wdata_%d", i), data+uint64(i))
		}
	}
	idle := func() { set("req_valid", 0) }
	s.Reset()
	// Read latency: one read, then wait for its response.
	request(false, 0)
	s.Step()
	idle()
	for read = 1; get("resp_valid") == 0; read++ {
		if read > 20 {
			return 0, 0, fmt.Errorf("sams q=%d: no read response", q)
		}
		s.Step()
	}
	// Write latency: a write, gap cycles of nothing, then a read of it.
	for gap := 0; gap < 8; gap++ {
		data := uint64(0x1000 * (gap + 1))
		request(true, data)
		s.Step()
		idle()
		for range gap {
			s.Step()
		}
		request(false, 0)
		s.Step()
		idle()
		for range 20 {
			if get("resp_valid") == 1 {
				break
			}
			s.Step()
		}
		if get("resp_rdata_0") == data {
			return read, gap + 1, err
		}
		for range 8 {
			s.Step()
		}
	}
	return read, 0, fmt.Errorf("sams q=%d: a write is never read back", q)
}
