// Package plots draws ready-made figures for the LDP library with
// gonum/plot: the Voronoi cells of prototypes in the plane under any metric,
// the decision regions of a classifier, and risk curves with bands. Every
// function returns a *plot.Plot, which a notebook cell displays by returning
// it and a script saves with p.Save(width, height, "file.png").
package plots
