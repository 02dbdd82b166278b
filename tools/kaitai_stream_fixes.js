// Fixes to the Kaitai Struct JavaScript runtime (npm kaitai-struct 0.11.0) that the generated parsers need.
// tools/generate.py copies this file into generated/javascript/; load it once, after KaitaiStream and
// before parsing (node: require("./KaitaiStreamFixes"); a browser: a <script> after KaitaiStream.js).
//
// readS8be / readS8le: the runtime computes a negative s8 from `v ^ 0xffffffff`, which JavaScript evaluates
// as a *signed* 32-bit number, so every negative value whose low word has its top bit clear comes out 2**32
// too large (kaitai_struct_javascript_runtime pull request 16, unreleased).  Here the value is
// (high word - 2**32) * 2**32 + low word: one rounding, so the nearest double of the true value (exact up
// to 2**53 in magnitude, like every number the runtime returns).
(function (root, factory) {
  if (typeof define === "function" && define.amd) {
    define(["kaitai-struct/KaitaiStream"], factory);
  } else if (typeof exports === "object" && exports !== null && typeof exports.nodeType !== "number") {
    factory(require("kaitai-struct/KaitaiStream"));
  } else {
    factory(root.KaitaiStream);
  }
})(typeof self !== "undefined" ? self : this, function (KaitaiStream) {
  "use strict";
  var WORD = 0x100000000;

  function signed64(high, low) {
    return (high & 0x80000000) === 0 ? high * WORD + low : (high - WORD) * WORD + low;
  }

  KaitaiStream.prototype.readS8be = function () {
    this.ensureBytesLeft(8);
    var high = this.readU4be();
    return signed64(high, this.readU4be());
  };

  KaitaiStream.prototype.readS8le = function () {
    this.ensureBytesLeft(8);
    var low = this.readU4le();
    return signed64(this.readU4le(), low);
  };
});
