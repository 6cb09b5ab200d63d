// Package unexported differentiates a function of another package whose
// body reads unexported fields: code generated here cannot name them.
package unexported

import _ "gonum.org/v1/gonum/optimize/functions"

// want +1 "MinimalSurface.Func: functions.MinimalSurface.at cannot be differentiated"
//gad:jvp MinimalSurfaceJVP gonum.org/v1/gonum/optimize/functions.MinimalSurface.Func
