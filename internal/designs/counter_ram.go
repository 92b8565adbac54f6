package designs

import "github.com/parmem/parmem/hdl"

// CounterRAM is the example design of the hdl issue: a counter, a RAM with a
// synchronous read port, and a register file instanced as a sub-module.
//
//	count  <= en ? count + 1 : count            (8-bit register)
//	ram[count[3:0]] <= wdata        when en     (16 x 16 RAM)
//	ram_q  <= ram[raddr]            (synchronous read, read-first)
//	rf.r[count[2:0]] <= wdata ^ {8'd0, count}  when en  (8 x 16 register file)
//	rf_a = rf.r[raddr[2:0]], rf_b = rf.r[count[2:0]]  (asynchronous reads)
//	sum = rf_a + ram_q
func CounterRAM() *hdl.Module {
	rf := hdl.NewModule("regfile")
	wa, wd, we := rf.Input("wa", 3), rf.Input("wd", 16), rf.Input("we", 1)
	ra0, ra1 := rf.Input("ra0", 3), rf.Input("ra1", 3)
	regs := rf.Mem("r", 3, 16)
	regs.Write(wa, wd, we)
	rf.Output("rd0", 16).Drive(regs.Read(ra0))
	rf.Output("rd1", 16).Drive(regs.Read(ra1))

	top := hdl.NewModule("counter_ram")
	en, wdata, raddr := top.Input("en", 1), top.Input("wdata", 16), top.Input("raddr", 4)
	count := top.Reg("count", 8)
	count.Drive(count.Add(top.ConstU(8, 1)))
	count.Enable(en)
	ram := top.Mem("ram", 4, 16)
	ram.Write(count.Trunc(4), wdata, en)
	ramQ := ram.ReadSync(raddr, nil).Named("ram_q")

	u := top.Instance("rf", rf)
	u.Connect("wa", count.Trunc(3))
	u.Connect("wd", wdata.Xor(count.Zext(16)))
	u.Connect("we", en)
	u.Connect("ra0", raddr.Trunc(3))
	u.Connect("ra1", count.Trunc(3))
	rfA := u.Out("rd0")
	top.Output("count_q", 8).Drive(count)
	top.Output("ram_q_o", 16).Drive(ramQ)
	top.Output("rf_a", 16).Drive(rfA)
	top.Output("rf_b", 16).Drive(u.Out("rd1"))
	top.Output("sum", 16).Drive(rfA.Add(ramQ))
	return top
}
