package jsonscan

// Span32 is a Span stored in half the space, for descriptors kept for a whole transcript. It
// limits offsets to 2 GiB, far above any result (normalize refuses larger input).
type Span32 struct{ Start, End int32 }

// Pack stores s in a Span32.
func (s Span) Pack() Span32 { return Span32{int32(s.Start), int32(s.End)} }

// Unpack returns the Span.
func (s Span32) Unpack() Span { return Span{int(s.Start), int(s.End)} }

// Member is one member of an object, located in the input.
type Member struct {
	key, value, name Span32
	ws               bool // the value holds whitespace between its tokens
	nameInArena      bool // name is in Members.arena (the key had escapes), not in the input
	duplicated       bool // the key was given more than once
}

// Key is the key token, quotes included, as written.
func (m *Member) Key() Span { return m.key.Unpack() }

// Value is the value's span; it is absent after Remove.
func (m *Member) Value() Span { return m.value.Unpack() }

// WS reports whether the value holds whitespace between its tokens.
func (m *Member) WS() bool { return m.ws }

// Remove marks the member as removed: its value becomes absent.
func (m *Member) Remove() { m.value = Span32{} }

// smallObject is the member count up to which duplicates are found by a linear scan; larger
// objects get an index, so that a hostile object with a million keys costs linear time.
const smallObject = 16

// Members collects the members of objects in one slice, each object a contiguous run, and
// resolves duplicate keys as the platform's Python parser does: the key keeps the position of
// its first occurrence and takes the value of its last.
type Members struct {
	List  []Member
	arena []byte // unescaped names of keys that had escapes
	start int
	// arenaStart is where the current object's names begin in arena.
	arenaStart int
	index      map[string]int
	// names has a bit set for each name of the current object, by nameBit: a name whose bit
	// is clear is new, without comparing it with the others (most objects have no duplicate).
	names uint64
}

// nameBit picks a name's bit in Members.names from its length and first byte, which tell
// apart the keys a message or tool call usually has.
func nameBit(name []byte) uint64 {
	h := uint(len(name))
	if len(name) > 0 {
		h += 7 * uint(name[0])
	}
	return 1 << (h & 63)
}

// Current is the index in List of the current object's first member.
func (m *Members) Current() int { return m.start }

// Reset forgets every object and begins a new one.
func (m *Members) Reset() {
	m.List, m.arena = m.List[:0], m.arena[:0]
	m.Begin()
}

// Begin starts a new object; its members are List[Begin():].
func (m *Members) Begin() int {
	m.start, m.arenaStart, m.names = len(m.List), len(m.arena), 0
	if m.index != nil {
		clear(m.index)
	}
	return m.start
}

// Name is the text of member i's key, unescaped.
func (m *Members) Name(data []byte, i int) []byte {
	n := m.List[i].name
	if m.List[i].nameInArena {
		return m.arena[n.Start:n.End]
	}
	return data[n.Start:n.End]
}

// Put adds a member of the current object: its key token (quotes included) and the key's flags,
// its value and whether the value holds whitespace. When an earlier member has the same name,
// that member takes the new value instead, and Put returns its index in List the first time the
// key repeats (so that each duplicated key is reported once), and -1 otherwise.
func (m *Members) Put(data []byte, key Span, keyFlags StrFlags, value Span, ws bool) int {
	// Nearly every member is of a small object, its key plain and not empty, and there is
	// room for it: settled here, where nothing is live across a call (put's growslice and
	// index made every member save its arguments first).
	last := len(m.List)
	if n := key.End - key.Start - 2; last < cap(m.List) && keyFlags&Escaped == 0 && last-m.start < smallObject && n > 0 {
		m.List = m.List[:last+1]
		mem := &m.List[last]
		mem.key, mem.value, mem.name = key.Pack(), value.Pack(), Span32{int32(key.Start + 1), int32(key.End - 1)}
		mem.ws, mem.nameInArena, mem.duplicated = ws, false, false
		// nameBit of the name, read from the key token: a new name, nearly every one, needs
		// no slice of it.
		if bit := uint64(1) << ((uint(n) + 7*uint(data[key.Start+1])) & 63); m.names&bit == 0 {
			m.names |= bit
			return -1
		}
		return m.findSmall(data, data[key.Start+1:key.End-1], last)
	}
	return m.put(data, key, keyFlags, value, ws)
}

// put is Put for the other members.
func (m *Members) put(data []byte, key Span, keyFlags StrFlags, value Span, ws bool) int {
	// The member is written in place, field by field: a Member built on the stack and then
	// copied is read back wider than it was written, which stalls the store (measured: most of
	// Put's time).
	last := len(m.List)
	if last < cap(m.List) {
		m.List = m.List[:last+1]
	} else {
		m.List = append(m.List, Member{})
	}
	mem := &m.List[last]
	mem.key, mem.value, mem.ws, mem.duplicated = key.Pack(), value.Pack(), ws, false
	var name []byte
	if keyFlags&Escaped != 0 {
		from := len(m.arena)
		m.arena = AppendUnescaped(m.arena, data[key.Start+1:key.End-1])
		mem.name, mem.nameInArena = Span32{int32(from), int32(len(m.arena))}, true
		name = m.arena[from:]
	} else {
		mem.name, mem.nameInArena = Span32{int32(key.Start + 1), int32(key.End - 1)}, false
		if last-m.start < smallObject {
			// nameBit of the name, read from the key token: a new name, nearly every one,
			// needs no slice of it.
			n := key.End - key.Start - 2
			h := uint(n)
			if n > 0 {
				h += 7 * uint(data[key.Start+1])
			}
			if bit := uint64(1) << (h & 63); m.names&bit == 0 {
				m.names |= bit
				return -1
			}
			return m.findSmall(data, data[key.Start+1:key.End-1], last)
		}
		name = data[key.Start+1 : key.End-1]
	}
	if last-m.start < smallObject {
		bit := nameBit(name)
		if m.names&bit == 0 {
			m.names |= bit
			return -1
		}
		return m.findSmall(data, name, last)
	}
	if m.index == nil {
		m.index = make(map[string]int, 2*smallObject)
	}
	if len(m.index) == 0 {
		for i := m.start; i < last; i++ {
			m.index[string(m.Name(data, i))] = i
		}
	}
	if i, ok := m.index[string(name)]; ok {
		return m.replace(i)
	}
	m.index[string(name)] = last
	return -1
}

// findSmall resolves member last, named name, of a small object whose name bit was set
// already: it replaces the earlier member of the same name, if any.
func (m *Members) findSmall(data, name []byte, last int) int {
	for i := m.start; i < last; i++ {
		if n := m.List[i].name; int(n.End-n.Start) == len(name) && string(m.Name(data, i)) == string(name) {
			return m.replace(i)
		}
	}
	return -1
}

// replace gives member i the value of the last member, which it then forgets.
func (m *Members) replace(i int) int {
	last := &m.List[len(m.List)-1]
	m.List[i].value, m.List[i].ws = last.value, last.ws
	m.List = m.List[:len(m.List)-1]
	if m.List[i].duplicated {
		return -1
	}
	m.List[i].duplicated = true
	return i
}

// Find returns the index in List of the member of the current object named name, or -1.
func (m *Members) Find(data []byte, name string) int {
	for i := m.start; i < len(m.List); i++ {
		if string(m.Name(data, i)) == name {
			return i
		}
	}
	return -1
}

// Drop forgets the members of the current object, and their names.
func (m *Members) Drop() { m.List, m.arena = m.List[:m.start], m.arena[:m.arenaStart] }
