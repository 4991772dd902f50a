package classify

import "fmt"

// ToPlusMinus converts labels coded 0/1 (Berrett–Butucea) to −1/+1 (Proto-NN):
// 0 → −1, 1 → +1. Other values are an error.
func ToPlusMinus(y01 []int) ([]int, error) {
	out := make([]int, len(y01))
	for i, y := range y01 {
		switch y {
		case 0:
			out[i] = -1
		case 1:
			out[i] = 1
		default:
			return nil, fmt.Errorf("classify: ToPlusMinus: y[%d] = %d, want 0 or 1", i, y)
		}
	}
	return out, nil
}

// ToBinary converts labels coded −1/+1 to 0/1: −1 → 0, +1 → 1. Other values
// are an error.
func ToBinary(ypm []int) ([]int, error) {
	out := make([]int, len(ypm))
	for i, y := range ypm {
		switch y {
		case -1:
			out[i] = 0
		case 1:
			out[i] = 1
		default:
			return nil, fmt.Errorf("classify: ToBinary: y[%d] = %d, want -1 or +1", i, y)
		}
	}
	return out, nil
}

func checkPM(name string, y []int) error {
	for i, v := range y {
		if v != 1 && v != -1 {
			return fmt.Errorf("classify: %s: y[%d] = %d, want -1 or +1 (Proto-NN codes labels ±1; use ToPlusMinus)", name, i, v)
		}
	}
	return nil
}

func check01(name string, y []int) error {
	for i, v := range y {
		if v != 0 && v != 1 {
			return fmt.Errorf("classify: %s: y[%d] = %d, want 0 or 1 (Berrett–Butucea codes labels 0/1; use ToBinary)", name, i, v)
		}
	}
	return nil
}

// positive reports whether a label in either coding is the positive class.
func positive(i, y int) (bool, error) {
	switch y {
	case 1:
		return true, nil
	case 0, -1:
		return false, nil
	}
	return false, fmt.Errorf("classify: label[%d] = %d, want 1 (positive) or 0/-1 (negative)", i, y)
}
