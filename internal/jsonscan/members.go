package jsonscan

// Member is one member of an object: its key and value, located in the input.
type Member struct {
	Key   Span   // the key token, quotes included, as written
	Name  []byte // the key's text, unescaped (it aliases the input when the key has no escapes)
	Value Span
	WS    bool // the value holds whitespace between its tokens
}

// smallObject is the member count up to which duplicates are found by a linear scan; larger
// objects get an index, so that a hostile object with a million keys costs linear time.
const smallObject = 16

// Members collects the members of objects in one slice, each object a contiguous run, and
// resolves duplicate keys as the platform's Python parser does: the key keeps the position of
// its first occurrence and takes the value of its last.
type Members struct {
	List  []Member
	start int
	index map[string]int
}

// Begin starts a new object; its members are List[Begin():].
func (m *Members) Begin() int {
	m.start = len(m.List)
	if m.index != nil {
		clear(m.index)
	}
	return m.start
}

// Reset forgets every object and begins a new one.
func (m *Members) Reset() {
	m.List = m.List[:0]
	m.Begin()
}

// Put adds the member of the current object, or, when an earlier member has the same name,
// gives that member the new value and returns its index in List (else -1).
func (m *Members) Put(mem Member) int {
	run := m.List[m.start:]
	if len(run) < smallObject {
		for i := range run {
			if string(run[i].Name) == string(mem.Name) {
				return m.replace(m.start+i, mem)
			}
		}
	} else {
		if m.index == nil {
			m.index = make(map[string]int, 2*smallObject)
		}
		if len(m.index) == 0 {
			for i := range run {
				m.index[string(run[i].Name)] = m.start + i
			}
		}
		if i, ok := m.index[string(mem.Name)]; ok {
			return m.replace(i, mem)
		}
		m.index[string(mem.Name)] = len(m.List)
	}
	m.List = append(m.List, mem)
	return -1
}

func (m *Members) replace(i int, mem Member) int {
	m.List[i].Value, m.List[i].WS = mem.Value, mem.WS
	return i
}

// Find returns the index in List of the member of the current object named name, or -1.
func (m *Members) Find(name string) int {
	for i := m.start; i < len(m.List); i++ {
		if string(m.List[i].Name) == name {
			return i
		}
	}
	return -1
}

// Drop forgets the members of the current object.
func (m *Members) Drop() { m.List = m.List[:m.start] }
