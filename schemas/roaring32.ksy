meta:
  id: roaring32
  title: Roaring32 portable serialisation (RoaringFormatSpec)
  license: Apache-2.0
  endian: le
  -construct-embedded: "_rt.Roaring32Bytes()"
  -plain-embedded: roaring32_bytes
  -runtime-layout: true
-export-values: true
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
    if: not has_run_containers
    doc: number of containers (only without run containers)
  - id: run_flags
    size: run_flags_size
    if: has_run_containers
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
    if: has_offsets
    doc: byte offset of each container from the start of the bitmap
  - id: containers
    type: container(has_run_containers and ((run_flags[_index >> 3] >> (_index & 7)) & 1) == 1, descriptive_header[_index].cardinality_minus_1)
    repeat: expr
    repeat-expr: num_containers
    doc: the containers, in key order
instances:
  has_run_containers:
    value: (cookie & 0xffff) == roaring_cookie::run.to_i
    doc: the cookie is a run cookie (its high 16 bits count the containers; run flags follow it)
  num_containers:
    value: 'has_run_containers ? (cookie >> 16) + 1 : container_count'
    doc: number of containers
  run_flags_size:
    value: (num_containers + 7) / 8
    doc: bytes of run flags (one bit per container)
  has_offsets:
    value: not has_run_containers or num_containers >= 4
    doc: the offset header is present (always without run containers; with them from four containers on)
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
    -export-values: true
    params:
      - id: is_run
        type: bool
        doc: the container's run flag is set
      - id: cardinality_minus_1
        type: u2
        doc: the container's cardinality - 1 (from its descriptive header)
    seq:
      - id: values
        type: u2
        repeat: expr
        repeat-expr: cardinality_minus_1 + 1
        if: is_array
        doc: array container - sorted low 16 bits
      - id: bitmap
        type: u8
        repeat: expr
        repeat-expr: bitmap_words
        if: is_bitmap
        doc: bitmap container - 65536 bits, value v is bit v & 63 of word v >> 6
      - id: num_runs
        type: u2
        -dtype-name: NUM_RUNS_DTYPE
        if: is_run
        doc: run container - number of runs
      - id: runs
        type: run
        repeat: expr
        repeat-expr: num_runs
        if: is_run
        doc: run container - the runs
    instances:
      array_max_cardinality:
        value: 4096
        doc: most values an array container holds (a container without runs holding more is a bitmap)
      is_array:
        value: not is_run and cardinality_minus_1 < array_max_cardinality
        doc: an array container (sorted values)
      is_bitmap:
        value: not is_run and cardinality_minus_1 >= array_max_cardinality
        doc: a bitmap container (one bit per low-16-bit value)
      bitmap_words:
        value: 1024
        doc: words of a bitmap container
enums:
  roaring_cookie:
    12346:
      id: no_run
      doc: SERIAL_COOKIE_NO_RUNCONTAINER - no run containers, a u32 container count follows
    12347:
      id: run
      doc: SERIAL_COOKIE - low 16 bits of a cookie whose high 16 bits are container_count - 1
