// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

(function (root, factory) {
  if (typeof define === 'function' && define.amd) {
    define(['exports', 'kaitai-struct/KaitaiStream'], factory);
  } else if (typeof exports === 'object' && exports !== null && typeof exports.nodeType !== 'number') {
    factory(exports, require('kaitai-struct/KaitaiStream'));
  } else {
    factory(root.Roaring32 || (root.Roaring32 = {}), root.KaitaiStream);
  }
})(typeof self !== 'undefined' ? self : this, function (Roaring32_, KaitaiStream) {
/**
 * FORMATS.md 0. Used for inspection and cross-checks; embedded in other formats the Construct
 * codecs treat a roaring bitmap as self-delimiting bulk bytes and the runtime decodes it with
 * pyroaring.
 * @see {@link https://github.com/RoaringBitmap/RoaringFormatSpec/blob/master/README.md|Source}
 */

var Roaring32 = (function() {
  Roaring32.RoaringCookie = Object.freeze({
    NO_RUN: 12346,
    RUN: 12347,

    12346: "NO_RUN",
    12347: "RUN",
  });

  function Roaring32(_io, _parent, _root) {
    this._io = _io;
    this._parent = _parent;
    this._root = _root || this;
    this._debug = {};

  }
  Roaring32.prototype._read = function() {
    this._debug.cookie = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this.cookie = this._io.readU4le();
    this._debug.cookie.end = this._io.pos;
    var _ = this.cookie;
    if (!( (((_ & 65535) == Roaring32.RoaringCookie.RUN) || (_ == Roaring32.RoaringCookie.NO_RUN)) )) {
      var _err = new KaitaiStream.ValidationExprError(this.cookie, this._io, "/seq/0");
      this._debug.cookie.validationError = _err;
      throw _err;
    }
    if (!(this.hasRunContainers)) {
      this._debug.containerCount = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.containerCount = this._io.readU4le();
      this._debug.containerCount.end = this._io.pos;
    }
    if (this.hasRunContainers) {
      this._debug.runFlags = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.runFlags = this._io.readBytes(this.runFlagsSize);
      this._debug.runFlags.end = this._io.pos;
    }
    this._debug.descriptiveHeader = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._debug.descriptiveHeader.arr = [];
    this.descriptiveHeader = [];
    for (var i = 0; i < this.numContainers; i++) {
      this._debug.descriptiveHeader.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
      var _t_descriptiveHeader = new ContainerHeader(this._io, this, this._root);
      try {
        _t_descriptiveHeader._read();
      } finally {
        this.descriptiveHeader.push(_t_descriptiveHeader);
      }
      this._debug.descriptiveHeader.arr[i].end = this._io.pos;
    }
    this._debug.descriptiveHeader.end = this._io.pos;
    if (this.hasOffsets) {
      this._debug.offsets = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this._debug.offsets.arr = [];
      this.offsets = [];
      for (var i = 0; i < this.numContainers; i++) {
        this._debug.offsets.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this.offsets.push(this._io.readU4le());
        this._debug.offsets.arr[i].end = this._io.pos;
      }
      this._debug.offsets.end = this._io.pos;
    }
    this._debug.containers = { start: this._io.pos, ioOffset: this._io.byteOffset };
    this._debug.containers.arr = [];
    this.containers = [];
    for (var i = 0; i < this.numContainers; i++) {
      this._debug.containers.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
      var _t_containers = new Container(this._io, this, this._root,  ((this.hasRunContainers) && ((this.runFlags[i >>> 3] >>> (i & 7) & 1) == 1)) , this.descriptiveHeader[i].cardinalityMinus1);
      try {
        _t_containers._read();
      } finally {
        this.containers.push(_t_containers);
      }
      this._debug.containers.arr[i].end = this._io.pos;
    }
    this._debug.containers.end = this._io.pos;
  }

  /**
   * one container - array, bitmap or run
   */

  var Container = Roaring32.Container = (function() {
    function Container(_io, _parent, _root, isRun, cardinalityMinus1) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this.isRun = isRun;
      this.cardinalityMinus1 = cardinalityMinus1;
      this._debug = {};

    }
    Container.prototype._read = function() {
      if (this.isArray) {
        this._debug.values = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this._debug.values.arr = [];
        this.values = [];
        for (var i = 0; i < this.cardinalityMinus1 + 1; i++) {
          this._debug.values.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
          this.values.push(this._io.readU2le());
          this._debug.values.arr[i].end = this._io.pos;
        }
        this._debug.values.end = this._io.pos;
      }
      if (this.isBitmap) {
        this._debug.bitmap = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this._debug.bitmap.arr = [];
        this.bitmap = [];
        for (var i = 0; i < this.bitmapWords; i++) {
          this._debug.bitmap.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
          this.bitmap.push(this._io.readU8le());
          this._debug.bitmap.arr[i].end = this._io.pos;
        }
        this._debug.bitmap.end = this._io.pos;
      }
      if (this.isRun) {
        this._debug.numRuns = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this.numRuns = this._io.readU2le();
        this._debug.numRuns.end = this._io.pos;
      }
      if (this.isRun) {
        this._debug.runs = { start: this._io.pos, ioOffset: this._io.byteOffset };
        this._debug.runs.arr = [];
        this.runs = [];
        for (var i = 0; i < this.numRuns; i++) {
          this._debug.runs.arr[i] = { start: this._io.pos, ioOffset: this._io.byteOffset };
          var _t_runs = new Run(this._io, this, this._root);
          try {
            _t_runs._read();
          } finally {
            this.runs.push(_t_runs);
          }
          this._debug.runs.arr[i].end = this._io.pos;
        }
        this._debug.runs.end = this._io.pos;
      }
    }

    /**
     * most values an array container holds (a container without runs holding more is a bitmap)
     */
    Object.defineProperty(Container.prototype, 'arrayMaxCardinality', {
      get: function() {
        if (this._m_arrayMaxCardinality !== undefined)
          return this._m_arrayMaxCardinality;
        this._debug._m_arrayMaxCardinality = {  };
        this._m_arrayMaxCardinality = 4096;
        return this._m_arrayMaxCardinality;
      }
    });

    /**
     * words of a bitmap container
     */
    Object.defineProperty(Container.prototype, 'bitmapWords', {
      get: function() {
        if (this._m_bitmapWords !== undefined)
          return this._m_bitmapWords;
        this._debug._m_bitmapWords = {  };
        this._m_bitmapWords = 1024;
        return this._m_bitmapWords;
      }
    });

    /**
     * an array container (sorted values)
     */
    Object.defineProperty(Container.prototype, 'isArray', {
      get: function() {
        if (this._m_isArray !== undefined)
          return this._m_isArray;
        this._debug._m_isArray = {  };
        this._m_isArray =  ((!(this.isRun)) && (this.cardinalityMinus1 < this.arrayMaxCardinality)) ;
        return this._m_isArray;
      }
    });

    /**
     * a bitmap container (one bit per low-16-bit value)
     */
    Object.defineProperty(Container.prototype, 'isBitmap', {
      get: function() {
        if (this._m_isBitmap !== undefined)
          return this._m_isBitmap;
        this._debug._m_isBitmap = {  };
        this._m_isBitmap =  ((!(this.isRun)) && (this.cardinalityMinus1 >= this.arrayMaxCardinality)) ;
        return this._m_isBitmap;
      }
    });

    /**
     * array container - sorted low 16 bits
     */

    /**
     * bitmap container - 65536 bits, value v is bit v & 63 of word v >> 6
     */

    /**
     * run container - number of runs
     */

    /**
     * run container - the runs
     */

    /**
     * the container's run flag is set
     */

    /**
     * the container's cardinality - 1 (from its descriptive header)
     */

    return Container;
  })();

  /**
   * key and cardinality of one container
   */

  var ContainerHeader = Roaring32.ContainerHeader = (function() {
    function ContainerHeader(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    ContainerHeader.prototype._read = function() {
      this._debug.key = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.key = this._io.readU2le();
      this._debug.key.end = this._io.pos;
      this._debug.cardinalityMinus1 = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.cardinalityMinus1 = this._io.readU2le();
      this._debug.cardinalityMinus1.end = this._io.pos;
    }

    /**
     * high 16 bits of every value in the container
     */

    /**
     * number of values in the container minus one
     */

    return ContainerHeader;
  })();

  /**
   * one run of consecutive values
   */

  var Run = Roaring32.Run = (function() {
    function Run(_io, _parent, _root) {
      this._io = _io;
      this._parent = _parent;
      this._root = _root;
      this._debug = {};

    }
    Run.prototype._read = function() {
      this._debug.start = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.start = this._io.readU2le();
      this._debug.start.end = this._io.pos;
      this._debug.lengthMinus1 = { start: this._io.pos, ioOffset: this._io.byteOffset };
      this.lengthMinus1 = this._io.readU2le();
      this._debug.lengthMinus1.end = this._io.pos;
    }

    /**
     * first low-16-bit value of the run
     */

    /**
     * run length minus one
     */

    return Run;
  })();

  /**
   * the offset header is present (always without run containers; with them from four containers on)
   */
  Object.defineProperty(Roaring32.prototype, 'hasOffsets', {
    get: function() {
      if (this._m_hasOffsets !== undefined)
        return this._m_hasOffsets;
      this._debug._m_hasOffsets = {  };
      this._m_hasOffsets =  ((!(this.hasRunContainers)) || (this.numContainers >= 4)) ;
      return this._m_hasOffsets;
    }
  });

  /**
   * the cookie is a run cookie (its high 16 bits count the containers; run flags follow it)
   */
  Object.defineProperty(Roaring32.prototype, 'hasRunContainers', {
    get: function() {
      if (this._m_hasRunContainers !== undefined)
        return this._m_hasRunContainers;
      this._debug._m_hasRunContainers = {  };
      this._m_hasRunContainers = (this.cookie & 65535) == Roaring32.RoaringCookie.RUN;
      return this._m_hasRunContainers;
    }
  });

  /**
   * number of containers
   */
  Object.defineProperty(Roaring32.prototype, 'numContainers', {
    get: function() {
      if (this._m_numContainers !== undefined)
        return this._m_numContainers;
      this._debug._m_numContainers = {  };
      this._m_numContainers = (this.hasRunContainers ? (this.cookie >>> 16) + 1 : this.containerCount);
      return this._m_numContainers;
    }
  });

  /**
   * bytes of run flags (one bit per container)
   */
  Object.defineProperty(Roaring32.prototype, 'runFlagsSize', {
    get: function() {
      if (this._m_runFlagsSize !== undefined)
        return this._m_runFlagsSize;
      this._debug._m_runFlagsSize = {  };
      this._m_runFlagsSize = Math.floor((this.numContainers + 7) / 8);
      return this._m_runFlagsSize;
    }
  });

  /**
   * 12346 (no run containers) or 12347 | (container_count - 1) << 16 (run containers present)
   */

  /**
   * number of containers (only without run containers)
   */

  /**
   * bit i set means container i is a run container
   */

  /**
   * per container the high 16 bits (key) and cardinality - 1
   */

  /**
   * byte offset of each container from the start of the bitmap
   */

  /**
   * the containers, in key order
   */

  return Roaring32;
})();
Roaring32_.Roaring32 = Roaring32;
});
