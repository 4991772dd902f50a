package metric

import "math"

// EarthRadiusKm is the mean Earth radius (IUGG) in kilometres, the default
// radius of Haversine.
const EarthRadiusKm = 6371.0088

// Haversine is the great-circle distance between two points on a sphere,
// each given as []float64{latitude, longitude} in degrees. Radius is the
// sphere's radius (distance unit); zero means EarthRadiusKm.
type Haversine struct {
	Radius float64
}

// Dist returns the great-circle distance between a and b.
func (m Haversine) Dist(a, b []float64) float64 {
	r := m.Radius
	if r == 0 {
		r = EarthRadiusKm
	}
	const rad = math.Pi / 180
	lat1, lat2 := a[0]*rad, b[0]*rad
	dlat := lat2 - lat1
	dlon := (b[1] - a[1]) * rad
	s1, s2 := math.Sin(dlat/2), math.Sin(dlon/2)
	h := s1*s1 + math.Cos(lat1)*math.Cos(lat2)*s2*s2
	h = math.Min(1, math.Max(0, h))
	return 2 * r * math.Asin(math.Sqrt(h))
}
