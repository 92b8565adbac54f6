package hdl

import "fmt"

// Names that cannot be used for modules, ports, signals, memories or
// instances: the keywords of Verilog-2005 and of SystemVerilog-2017 (which
// Verilator parses by default), plus the implicit clock and reset.
var reservedWords = map[string]bool{}

func init() {
	for _, w := range verilogKeywords {
		reservedWords[w] = true
	}
}

var verilogKeywords = []string{
	// IEEE 1364-2005
	"always", "and", "assign", "automatic", "begin", "buf", "bufif0", "bufif1", "case", "casex",
	"casez", "cell", "cmos", "config", "deassign", "default", "defparam", "design", "disable",
	"edge", "else", "end", "endcase", "endconfig", "endfunction", "endgenerate", "endmodule",
	"endprimitive", "endspecify", "endtable", "endtask", "event", "for", "force", "forever",
	"fork", "function", "generate", "genvar", "highz0", "highz1", "if", "ifnone", "incdir",
	"include", "initial", "inout", "input", "instance", "integer", "join", "large", "liblist",
	"library", "localparam", "macromodule", "medium", "module", "nand", "negedge", "nmos", "nor",
	"noshowcancelled", "not", "notif0", "notif1", "or", "output", "parameter", "pmos", "posedge",
	"primitive", "pull0", "pull1", "pulldown", "pullup", "pulsestyle_ondetect",
	"pulsestyle_onevent", "rcmos", "real", "realtime", "reg", "release", "repeat", "rnmos",
	"rpmos", "rtran", "rtranif0", "rtranif1", "scalared", "showcancelled", "signed", "small",
	"specify", "specparam", "strong0", "strong1", "supply0", "supply1", "table", "task", "time",
	"tran", "tranif0", "tranif1", "tri", "tri0", "tri1", "triand", "trior", "trireg", "unsigned",
	"use", "uwire", "vectored", "wait", "wand", "weak0", "weak1", "while", "wire", "wor", "xnor",
	"xor",
	// IEEE 1800-2017 additions
	"accept_on", "alias", "always_comb", "always_ff", "always_latch", "assert", "assume",
	"before", "bind", "bins", "binsof", "bit", "break", "byte", "chandle", "checker", "class",
	"clocking", "const", "constraint", "context", "continue", "cover", "covergroup",
	"coverpoint", "cross", "dist", "do", "endchecker", "endclass", "endclocking", "endgroup",
	"endinterface", "endpackage", "endprogram", "endproperty", "endsequence", "enum",
	"eventually", "expect", "export", "extends", "extern", "final", "first_match", "foreach",
	"forkjoin", "global", "iff", "ignore_bins", "illegal_bins", "implements", "implies",
	"import", "inside", "int", "interconnect", "interface", "intersect", "join_any",
	"join_none", "let", "local", "logic", "longint", "matches", "modport", "nettype", "new",
	"nexttime", "null", "package", "packed", "priority", "program", "property", "protected",
	"pure", "rand", "randc", "randcase", "randsequence", "ref", "reject_on", "restrict",
	"return", "s_always", "s_eventually", "s_nexttime", "s_until", "s_until_with", "sequence",
	"shortint", "shortreal", "soft", "solve", "static", "string", "strong", "struct", "super",
	"sync_accept_on", "sync_reject_on", "tagged", "this", "throughout", "timeprecision",
	"timeunit", "type", "typedef", "union", "unique", "unique0", "until", "until_with",
	"untyped", "var", "virtual", "void", "wait_order", "weak", "wildcard", "with", "within",
}

// Implicit port names of every module that holds state.
const (
	ClockName = "clk"
	ResetName = "rst"
)

// checkName returns why name cannot be a user-given Verilog identifier, or
// "" when it can. Names start with a letter and continue with letters, digits
// and '_'; a leading '_' is reserved for generated names.
func checkName(name string) string {
	if name == "" {
		return "empty name"
	}
	for i, c := range name {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		digitOrUnderscore := c >= '0' && c <= '9' || c == '_'
		if i == 0 && !letter {
			if c == '_' {
				return fmt.Sprintf("name %q starts with '_', which is reserved for generated names", name)
			}
			return fmt.Sprintf("name %q must start with a letter", name)
		}
		if !letter && !digitOrUnderscore {
			return fmt.Sprintf("name %q has %q; use letters, digits and '_'", name, c)
		}
	}
	if len(name) > 1000 {
		return fmt.Sprintf("name of %d characters is too long (max 1000)", len(name))
	}
	if reservedWords[name] {
		return fmt.Sprintf("name %q is a Verilog or SystemVerilog keyword", name)
	}
	return ""
}

// CheckName returns why name cannot be a user-given Verilog identifier
// (a module, port, signal, memory or instance name), or "" when it can.
func CheckName(name string) string {
	if why := checkName(name); why != "" {
		return why
	}
	if name == ClockName || name == ResetName {
		return fmt.Sprintf("name %q is the implicit clock or reset", name)
	}
	return ""
}
