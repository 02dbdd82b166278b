// This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild

package paimoncodec.formats;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import io.kaitai.struct.KaitaiStream;
import java.io.IOException;
import java.util.ArrayList;
import java.nio.charset.StandardCharsets;
import java.util.List;


/**
 * The proposed (never shipped) variant-2 layout: a map header with the file names padded to
 * the longest name, each with the start and size of its bitmap, followed by the bitmaps.
 * @see "docs/FORMATS.md section 6.4 (the DELETE_MAP proposal, never shipped in Paimon)"
 */
public class DeleteMap extends KaitaiStruct {
    public static DeleteMap fromFile(String fileName) throws IOException {
        return new DeleteMap(new ByteBufferKaitaiStream(fileName));
    }

    public DeleteMap(KaitaiStream _io) {
        this(_io, null, null);
    }

    public DeleteMap(KaitaiStream _io, KaitaiStruct _parent) {
        this(_io, _parent, null);
    }

    public DeleteMap(KaitaiStream _io, KaitaiStruct _parent, DeleteMap _root) {
        super(_io);
        this._parent = _parent;
        this._root = _root == null ? this : _root;
        _read();
    }
    private void _read() {
        this.entryCount = this._io.readS4be();
        this.maxNameLength = this._io.readS4be();
        this.entries = new ArrayList<DeleteMapEntry>();
        for (int i = 0; i < entryCount(); i++) {
            this.entries.add(new DeleteMapEntry(this._io, this, _root));
        }
        this.bitmaps = this._io.readBytesFull();
    }

    public void _fetchInstances() {
        for (int i = 0; i < this.entries.size(); i++) {
            this.entries.get(((Number) (i)).intValue())._fetchInstances();
        }
    }

    /**
     * one data file and where its bitmap is
     */
    public static class DeleteMapEntry extends KaitaiStruct {
        public static DeleteMapEntry fromFile(String fileName) throws IOException {
            return new DeleteMapEntry(new ByteBufferKaitaiStream(fileName));
        }

        public DeleteMapEntry(KaitaiStream _io) {
            this(_io, null, null);
        }

        public DeleteMapEntry(KaitaiStream _io, DeleteMap _parent) {
            this(_io, _parent, null);
        }

        public DeleteMapEntry(KaitaiStream _io, DeleteMap _parent, DeleteMap _root) {
            super(_io);
            this._parent = _parent;
            this._root = _root;
            _read();
        }
        private void _read() {
            this.name = new String(KaitaiStream.bytesStripRight(this._io.readBytes(_parent().maxNameLength()), (byte) 0), StandardCharsets.UTF_8);
            this.start = this._io.readS4be();
            this.size = this._io.readS4be();
        }

        public void _fetchInstances() {
        }
        private String name;
        private int start;
        private int size;
        private DeleteMap _root;
        private DeleteMap _parent;

        /**
         * data file name, zero-padded to max_name_length
         */
        public String name() { return name; }

        /**
         * starting position of the serialised bitmap
         */
        public int start() { return start; }

        /**
         * size of the serialised bitmap
         */
        public int size() { return size; }
        public DeleteMap _root() { return _root; }
        public DeleteMap _parent() { return _parent; }
    }
    private int entryCount;
    private int maxNameLength;
    private List<DeleteMapEntry> entries;
    private byte[] bitmaps;
    private DeleteMap _root;
    private KaitaiStruct _parent;

    /**
     * number of map entries
     */
    public int entryCount() { return entryCount; }

    /**
     * byte length of the longest file name (every name is padded to it)
     */
    public int maxNameLength() { return maxNameLength; }

    /**
     * the map entries
     */
    public List<DeleteMapEntry> entries() { return entries; }

    /**
     * the serialised bitmaps (bulk)
     */
    public byte[] bitmaps() { return bitmaps; }
    public DeleteMap _root() { return _root; }
    public KaitaiStruct _parent() { return _parent; }
}
