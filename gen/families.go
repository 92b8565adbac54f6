package main

// The unit families gen serves: adding a family is one blank import here.
// Everything else gen knows of a family (its units and their parameters,
// reports, pictures, canonical RTL) comes from the registry.
import (
	_ "github.com/parmem/parmem/units/dram"
	_ "github.com/parmem/parmem/units/elastic"
	_ "github.com/parmem/parmem/units/lib"
	_ "github.com/parmem/parmem/units/rsdmm"
	_ "github.com/parmem/parmem/units/sams"
	_ "github.com/parmem/parmem/units/smm2d"
	_ "github.com/parmem/parmem/units/vmshr"
)
