meta:
  id: roaring32
  title: Roaring32 portable serialisation (RoaringFormatSpec)
  license: Apache-2.0
  endian: le
  -construct-embedded: "_rt.Roaring32Bytes()"
  -plain-embedded: roaring32_bytes
doc-ref:
  - https://github.com/RoaringBitmap/RoaringFormatSpec/blob/master/README.md
doc: |
  FORMATS.md 0. Used for inspection and cross-checks; embedded in other formats the Construct
  codecs treat a roaring bitmap as self-delimiting bulk bytes and the runtime decodes it with
  pyroaring.
seq:
  - id: cookie
    type: u4
    -dtype-name: COOKIE_DTYPE
    valid:
      expr: (_ & 0xffff) == roaring_cookie::run.to_i or _ == roaring_cookie::no_run.to_i
    doc: 12346 (no run containers) or 12347 | (container_count - 1) << 16 (run containers present)
  - id: container_count
    type: u4
    -dtype-name: CONTAINER_COUNT_DTYPE
    if: (cookie & 0xffff) != roaring_cookie::run.to_i
    doc: number of containers (only without run containers)
  - id: run_flags
    size: '((cookie >> 16) + 1 + 7) / 8'
    if: (cookie & 0xffff) == roaring_cookie::run.to_i
    doc: bit i set means container i is a run container
  - id: descriptive_header
    type: container_header
    repeat: expr
    repeat-expr: num_containers
    doc: per container the high 16 bits (key) and cardinality - 1
  - id: offsets
    type: u4
    repeat: expr
    repeat-expr: num_containers
    if: (cookie & 0xffff) != roaring_cookie::run.to_i or num_containers >= 4
    doc: byte offset of each container from the start of the bitmap
  - id: containers
    type: container(_index)
    repeat: expr
    repeat-expr: num_containers
    doc: the containers, in key order
instances:
  num_containers:
    value: '((cookie & 0xffff) == roaring_cookie::run.to_i) ? (cookie >> 16) + 1 : container_count'
    doc: number of containers
types:
  container_header:
    doc: key and cardinality of one container
    seq:
      - id: key
        type: u2
        doc: high 16 bits of every value in the container
      - id: cardinality_minus_1
        type: u2
        doc: number of values in the container minus one
  run:
    doc: one run of consecutive values
    seq:
      - id: start
        type: u2
        doc: first low-16-bit value of the run
      - id: length_minus_1
        type: u2
        doc: run length minus one
  container:
    doc: one container - array, bitmap or run
    params:
      - id: idx
        type: s4
        doc: index of this container
    seq:
      - id: values
        type: u2
        repeat: expr
        repeat-expr: _parent.descriptive_header[idx].cardinality_minus_1 + 1
        if: not ((cookie_runs) and ((_parent.run_flags[idx >> 3] >> (idx & 7)) & 1) == 1) and _parent.descriptive_header[idx].cardinality_minus_1 < 4096
        doc: array container - sorted low 16 bits
      - id: bitmap
        type: u8
        repeat: expr
        repeat-expr: 1024
        if: not ((cookie_runs) and ((_parent.run_flags[idx >> 3] >> (idx & 7)) & 1) == 1) and _parent.descriptive_header[idx].cardinality_minus_1 >= 4096
        doc: bitmap container - 65536 bits, value v is bit v & 63 of word v >> 6
      - id: num_runs
        type: u2
        -dtype-name: NUM_RUNS_DTYPE
        if: (cookie_runs) and ((_parent.run_flags[idx >> 3] >> (idx & 7)) & 1) == 1
        doc: run container - number of runs
      - id: runs
        type: run
        repeat: expr
        repeat-expr: num_runs
        if: (cookie_runs) and ((_parent.run_flags[idx >> 3] >> (idx & 7)) & 1) == 1
        doc: run container - the runs
    instances:
      cookie_runs:
        value: (_parent.cookie & 0xffff) == roaring_cookie::run.to_i
        doc: whether the bitmap has run containers
enums:
  roaring_cookie:
    12346:
      id: no_run
      doc: SERIAL_COOKIE_NO_RUNCONTAINER - no run containers, a u32 container count follows
    12347:
      id: run
      doc: SERIAL_COOKIE - low 16 bits of a cookie whose high 16 bits are container_count - 1
