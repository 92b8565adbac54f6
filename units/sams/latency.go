package sams

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
)

// latency measures, on the Go simulator, the read latency of the SAMS
// memory (cycles from the cycle a read is accepted to the cycle its
// response is valid) and its write latency (the smallest distance in
// cycles at which a read accepted after a write returns what it wrote).
func latency(q int) (read, write int, err error) {
	m, ports := Memory{Q: q, N: table42N, W: table42W}.WithPorts("sams") // the configuration table42Config("sams", q) names
	d, err := hdl.Elaborate(m)
	if err != nil {
		return 0, 0, err
	}
	s := sim.New(d)
	set := func(port *hdl.Signal, v uint64) {
		if err == nil {
			err = s.SetU(port.Name(), v)
		}
	}
	get := func(port *hdl.Signal) uint64 {
		v, gerr := s.GetU(port.Name())
		if err == nil {
			err = gerr
		}
		return v
	}
	valid, req := ports.Req.Valid, ports.Req.Payload
	request := func(write bool, data uint64) {
		set(valid, 1)
		set(req.Write, 0)
		if write {
			set(req.Write, 1)
		}
		set(req.Mode, 0)
		set(req.Base, 8)
		for i, l := range req.Lanes {
			set(l.Mask, 1)
			set(l.Wdata, data+uint64(i))
		}
	}
	idle := func() { set(valid, 0) }
	s.Reset()
	// Read latency: one read, then wait for its response.
	request(false, 0)
	s.Step()
	idle()
	for read = 1; get(ports.Resp.Valid) == 0; read++ {
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
			if get(ports.Resp.Valid) == 1 {
				break
			}
			s.Step()
		}
		if get(ports.Resp.Rdata[0]) == data {
			return read, gap + 1, err
		}
		for range 8 {
			s.Step()
		}
	}
	return read, 0, fmt.Errorf("sams q=%d: a write is never read back", q)
}
