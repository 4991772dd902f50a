package mech

import "math/bits"

// Bernoulli(exp(−γ)) for a rational γ = num/den by table and residual:
// γ·2^expK = j + r/den (j an integer, 0 ≤ r < den), so
// e^{−γ} = e^{−j/2^expK} · e^{−δ} with δ = r/(2^expK·den) < 2^-expK. The
// first factor is decided by comparing uniform bits with the binary
// expansion of e^{−j/2^expK} (expTab, further bits by expNegFloor), the
// second by CKS's loop (A_k ~ Bernoulli(δ/k) until the first failure),
// whose first step fails, ending the loop, unless expK uniform bits are all
// zero. Both are exact; a draw usually costs one 16-bit chunk and expK bits
// against CKS's loop on all of γ (about e^γ' exact Bernoulli(n/m) draws, each
// a 128-by-64-bit division).

// expK is the number of binary digits of γ decided by the table.
const expK = 6

// expTabMax is the largest index of expTab: the table spans γ ≤ 4.
const expTabMax = 4 << expK

// expTab[j] = ⌊2^64 e^{−j/64}⌋ for j = 1..256 (expTab[0] is unused: e^0 = 1),
// as expNegFloor(j, 64, 64) computes them (TestExpTab recomputes every
// entry). They are written out because computing them at start-up would
// take about 70 ms of every process's start.
var expTab = [expTabMax + 1]uint64{
	0,
	0xfc07f55ff77d2493, 0xf81fab5445aebc8a, 0xf446e357f67dfd8e, 0xf07d5fde38151e72,
	0xecc2e44e820d18c3, 0xe9173500cbe0159a, 0xe57a1739d263ec94, 0xe1eb51276c110c3c,
	0xde6aa9dcebdb100b, 0xdaf7e94f9261313d, 0xd792d8530d3da531, 0xd43b4096043bde02,
	0xd0f0ec9eb43e8078, 0xcdb3a7c7979ebd5c, 0xca833e3c1bcf93e9, 0xc75f7cf564105743,
	0xc44831b718faa1d9, 0xc13d2b0c44b8af4a, 0xbe3e38443bb1dfef, 0xbb4b296f917bf09a,
	0xb863cf5d19e0354e, 0xb587fb96f5c4e712, 0xb2b7805fabcb5327, 0xaff230af4c747553,
	0xad37e030a19e3f45, 0xaa88633e692c84ab, 0xa7e38ee09ab13658, 0xa54938c9b7e846b1,
	0xa2b9375427dc3ef5, 0xa033617f9c893772, 0x9db78eee82d48c8c, 0x9b4597e37cb04ff3,
	0x98dd553ee54217fd, 0x967ea07c5ee56f55, 0x942953b06ae2c503, 0x91dd49860ab457fe,
	0x8f9a5d3c6ab3325d, 0x8d606aa49606dedd, 0x8b2f4e1f33b31766, 0x8906e49a4c9f3d59,
	0x86e70b8f1a73fbd8, 0x84cfa0ffdf2c01be, 0x82c08375c5354c26, 0x80b991fec8010361,
	0x7ebaac2ba4e0732d, 0x7cc3b20dd40e2be0, 0x7ad4843589c2dcd4, 0x78ed03afbf35f94b,
	0x770d1204436ab7a7, 0x75349133d3aa7794, 0x736363b63b8e16b0, 0x71996c787c783410,
	0x6fd68edafc62da2c, 0x6e1aaeafbbe37bd9, 0x6c65b0389348a478, 0x6ab7782576b52d00,
	0x690feb92c11d3784, 0x676ef0078609a0cd, 0x65d46b73ea070429, 0x6440442f81a5d838,
	0x62b260f7b6f19493, 0x612aa8ee354537a0, 0x5fa903975b63e9bb, 0x5e2d58d8b3bcdf1a,
	0x5cb790f772c1fc89, 0x5b479496fb39244c, 0x59dd4cb76870701b, 0x5878a2b41e3dfb5c,
	0x571980425eb43d70, 0x55bfcf6fe5744f51, 0x546b7aa18887d16e, 0x531c6c91deac7f58,
	0x51d2904feafbd5d0, 0x508dd13dcdd985a5, 0x4f4e1b0f7b13c216, 0x4e1359c97520ccb5,
	0x4cdd79bf8d65727e, 0x4bac6793a9707e7a, 0x4a8010348d177576, 0x495860dca9613c9c,
	0x48354710f02b9966, 0x4716b09fac78c53b, 0x45fc8b9f5f52996a, 0x44e6c66da13121ac,
	0x43d54fae07d2ab6b, 0x42c816491073af4c, 0x41bf096b0e553852, 0x40ba18831d80b0fa,
	0x3fb9334219b84263, 0x3ebc499999833486, 0x3dc34bbaed46001f, 0x3cce2a16225603bb,
	0x3bdcd55909f90d0f, 0x3aef3e6e4441267b, 0x3a05567c4eb55660, 0x391f0ee496b83ac8,
	0x383c59428f9da7ab, 0x375d276acc60a921, 0x36816b6a1ceb84c9, 0x35a91784aee38ed3,
	0x34d41e3531eadf5a, 0x3402722bff4a2c10, 0x3334064e44f540d5, 0x3268cdb533dcc75f,
	0x31a0bbad31804305, 0x30dbc3b50cb359c7, 0x3019d97d3589b6bc, 0x2f5af0e6f85d04af,
	0x2e9efe03bbe0b129, 0x2de5f5144237591b, 0x2d2fca87ecfdf06c, 0x2c7c72fc0440e510,
	0x2bcbe33b004facea, 0x2b1e103bd6635ba3, 0x2a72ef21480d0acf, 0x29ca753935610b35,
	0x292497fbf1d401ef, 0x28814d0b9bbf3f05, 0x27e08a337681c5e3, 0x274245674733a988,
	0x26a674c2b3e187b2, 0x260d0e88a546169a, 0x25760922aaf7e0e2, 0x24e15b206201726f,
	0x244efb36ddda5fba, 0x23bee04013b7b705, 0x2331013a482a9082, 0x22a555477f03973f,
	0x221bd3aced728908, 0x219473d26e58cf22, 0x210f2d41f8c6750e, 0x208bf7a71898e505,
	0x200acace6932f41c, 0x1f8b9ea51245e97e, 0x1f0e6b3846a34d3f, 0x1e9328b4c50f6bec,
	0x1e19cf665b0c9bd4, 0x1da257b7699770df, 0x1d2cba306bcc2a81, 0x1cb8ef777f6dc635,
	0x1c46f04fef473edd, 0x1bd6b599bf5f9f08, 0x1b6838513af9a966, 0x1afb718e8457f74e,
	0x1a905a85263e8996, 0x1a26ec83a72ae3c7, 0x19bf20f31e3be52c, 0x1958f156c9c2ae2d,
	0x18f4574ba775fafb, 0x18914c880e4176ba, 0x182fcadb49aaa417, 0x17cfcc2d36c51196,
	0x17714a7de2afa8c3, 0x17143fe52a950021, 0x16b8a6925d28afd4, 0x165e78cbdd9bc0ca,
	0x1605b0eec80265a6, 0x15ae496e972543ca, 0x15583cd4cbb8a97d, 0x150385c094f424a7,
	0x14b01ee67a85038c, 0x145e031007d65eae, 0x140d2d1b78a96048, 0x13bd97fb66f892e6,
	0x136f3eb67a211546, 0x13221c67174ca60c, 0x12d62c3b13178de6, 0x128b6973646d8276,
	0x1241cf63d898afd1, 0x11f95972c87e296e, 0x11b20318cf031654, 0x116bc7e08095fed3,
	0x1126a36623d7b448, 0x10e291576b5f5d8b, 0x109f8d7330954429, 0x105d93892fa0102d,
	0x101c9f79c460312b, 0x0fdcad35a875444d, 0x0f9db8bdb24957b6, 0x0f5fbe22951dfbdb,
	0x0f22b984a21723af, 0x0ee6a7138a3fe437, 0x0eab830e218533ea, 0x0e7149c222a2d95b,
	0x0e37f78bf3fec826, 0x0dff88d66d6f39a3, 0x0dc7fa1a9ee7dde2, 0x0d9147df980a8fa4,
	0x0d5b6eba30980464, 0x0d266b4cd1bcff77, 0x0cf23a4740389d0a, 0x0cbed86667585764,
	0x0c8c427424c67626, 0x0c5a75471527a46b, 0x0c296dc2618477a6, 0x0bf928d58d7bbdba,
	0x0bc9a37c463a7591, 0x0b9adabe32366189, 0x0b6ccbaec1a82f75, 0x0b3f736cffc23dc7,
	0x0b12cf2364a1114d, 0x0ae6dc07a7f29a7f, 0x0abb975a945174dd, 0x0a90fe67db5155fd,
	0x0a670e85ea39ed12, 0x0a3dc515bf6d7ea1, 0x0a151f82c07892b2, 0x09ed1b4290c81695,
	0x09c5b5d4e9035d75, 0x099eecc36f077579, 0x0978bda18e81510a, 0x0953260c52244dea,
	0x092e23aa3d7aad84, 0x0909b42b274d9b6d, 0x08e5d54814a2689c, 0x08c284c3144aab31,
	0x089fc0671b04fbb2, 0x087d8607e02c11e5, 0x085bd381baf20c1b, 0x083aa6b98025b4b1,
	0x0819fd9c607fa20e, 0x07f9d61fc77515f0, 0x07da2e413a8e8934, 0x07bb0406393fd97d,
	0x079c557c1d40163d, 0x077e20b7fb5ef299, 0x076063d684d5e979, 0x07431cfbe91328db,
	0x07264a53b7fc610e, 0x0709ea10c4a79c05, 0x06edfa6d08884847, 0x06d279a9870eaa50,
	0x06b7660e31b7ee59, 0x069cbde9cc8d1b7b, 0x06827f91d30f3026, 0x0668a9625d8eb6a6,
	0x064f39be06ed2730, 0x06362f0dd2c67381, 0x061d87c114011eb8, 0x0605424d53c34a57,
	0x05ed5d2e38cb27c7, 0x05d5d6e56f2943de, 0x05beadfa905b280d, 0x05a7e0fb0bc4d2d7,
	0x05916e7a0f878f35, 0x057b551071b4b83c, 0x0565935c99dafc4c, 0x055028026aecb880,
	0x053b11ab2d7e0ad1, 0x05264f057a593ecb, 0x0511dec525683e0f, 0x04fdbfa328f1b34a,
	0x04e9f05d91289358, 0x04d66fb7680cc5a4, 0x04c33c78a19ba9ba, 0x04b0556e084f3d1d,
}

// bernTab returns true with probability e^{−j/2^expK}, 1 ≤ j ≤ expTabMax,
// exactly: a uniform real U = 0.c₀c₁… (16-bit chunks drawn as needed) is
// compared with e^{−j/2^expK}'s binary expansion; the first chunk decides
// with probability 1 − 2^-16.
func (b *bitSrc) bernTab(j uint64) bool {
	c := expTab[j] >> 48
	if u := b.bits16(); u != c {
		return u < c
	}
	return b.bernTabTail(j)
}

// bernTabTail finishes bernTab (and geomBlocks' comparisons) after U's first
// chunk equalled e^{−j/2^expK}'s: chunks 1 to 3 from expTab, the rest
// computed by expNegFloor (reached with probability 2^-64).
//
//go:noinline
func (b *bitSrc) bernTabTail(j uint64) bool {
	for i := 1; ; i++ {
		var c uint64
		if i < 4 {
			c = expTab[j] >> (48 - 16*i) & 0xffff
		} else {
			c = expNegChunk(int64(j), 1<<expK, i)
		}
		if u := b.bits16(); u != c {
			return u < c
		}
	}
}

// bernExpSplit returns true with probability exp(−num/den), exactly, for
// 0 < den < 2^63: the table part e^{−j/2^expK} (in steps of e^{−4} while
// j > expTabMax) and the residual e^{−δ}. One 128-by-64-bit division gives
// j and r; γ ≥ 2^57 (where that division would overflow) takes bernExp128.
func (b *bitSrc) bernExpSplit(num u128, den uint64) bool {
	hi := num.hi<<expK | num.lo>>(64-expK)
	if num.hi>>(64-expK) != 0 || hi >= den {
		return bernExp128(b, num, u128{0, den})
	}
	j, r := bits.Div64(hi, num.lo<<expK, den)
	for j > expTabMax {
		if !b.bernTab(expTabMax) {
			return false
		}
		j -= expTabMax
	}
	if j != 0 { // bernTab(j), written out
		c := expTab[j] >> 48
		if u := b.bits16(); u > c || u == c && !b.bernTabTail(j) {
			return false
		}
	}
	// Residual: A_1 ~ Bernoulli(δ) is U < r/(2^expK·den), which needs U's
	// first expK bits to be zero (then U's remaining bits below r/den).
	if b.take(expK, 1<<expK-1) != 0 {
		return true
	}
	return b.bernResidTail(r, den)
}

// bernResidTail finishes CKS's loop for e^{−δ}, δ = r/(2^expK·den) < 2^-expK,
// r < den < 2^63, after A_1's first expK bits came out zero: A_1 = 1 iff
// U's further bits fall below r/den; then A_k ~ Bernoulli(1/k) ∧
// Bernoulli(δ) for k = 2, 3, … until the first failure, the result being
// whether that k is odd.
//
//go:noinline
func (b *bitSrc) bernResidTail(r, den uint64) bool {
	if !b.bernRat(r, den) {
		return true
	}
	for k := uint64(2); ; k++ {
		if b.below(k) != 0 || b.bits(expK) != 0 || !b.bernRat(r, den) {
			return k&1 == 1
		}
	}
}
