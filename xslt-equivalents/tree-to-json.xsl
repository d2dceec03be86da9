<?xml version="1.0" encoding="UTF-8"?>
<!--
  tree-to-json.xsl: the tree XML written by dagaz convert FILE with the xml output
  (stage syntax or expanded) to the JSON written by dagaz convert FILE with the json output,
  byte for byte (see docs/formats.md, sections "XML" and "JSON").

  Usage: xsltproc xslt-equivalents/tree-to-json.xsl tree.xml > tree.json
  XSLT 1.0; tested with xsltproc (libxslt).
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="text" encoding="UTF-8"/>
  <!-- Only zrf and list hold layout whitespace; string and comment text is kept verbatim. -->
  <xsl:strip-space elements="zrf list"/>

  <!-- Root: {"schema_version":N,"stage":"..","source":"..","forms":[..]} + LF -->
  <xsl:template match="/zrf">
    <xsl:text>{"schema_version":</xsl:text>
    <xsl:value-of select="@schema-version"/>
    <xsl:text>,"stage":</xsl:text>
    <xsl:call-template name="json-string">
      <xsl:with-param name="s" select="string(@stage)"/>
    </xsl:call-template>
    <xsl:text>,"source":</xsl:text>
    <xsl:call-template name="json-string">
      <xsl:with-param name="s" select="string(@source)"/>
    </xsl:call-template>
    <xsl:text>,"forms":[</xsl:text>
    <xsl:apply-templates select="*"/>
    <xsl:text>]}&#10;</xsl:text>
  </xsl:template>

  <!-- Any node: kind, line, col, file?, head?, then items (lists) or text (leaves). -->
  <xsl:template match="*">
    <xsl:if test="position() &gt; 1">
      <xsl:text>,</xsl:text>
    </xsl:if>
    <xsl:text>{"kind":"</xsl:text>
    <xsl:value-of select="local-name()"/>
    <xsl:text>","line":</xsl:text>
    <xsl:value-of select="@line"/>
    <xsl:text>,"col":</xsl:text>
    <xsl:value-of select="@col"/>
    <xsl:if test="@file">
      <xsl:text>,"file":</xsl:text>
      <xsl:call-template name="json-string">
        <xsl:with-param name="s" select="string(@file)"/>
      </xsl:call-template>
    </xsl:if>
    <xsl:if test="@head">
      <xsl:text>,"head":</xsl:text>
      <xsl:call-template name="json-string">
        <xsl:with-param name="s" select="string(@head)"/>
      </xsl:call-template>
    </xsl:if>
    <xsl:choose>
      <xsl:when test="self::list">
        <xsl:text>,"items":[</xsl:text>
        <xsl:apply-templates select="*"/>
        <xsl:text>]}</xsl:text>
      </xsl:when>
      <xsl:otherwise>
        <xsl:text>,"text":</xsl:text>
        <xsl:call-template name="json-string">
          <xsl:with-param name="s" select="string(.)"/>
        </xsl:call-template>
        <xsl:text>}</xsl:text>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A JSON string literal: quotes around s, with \ " LF CR TAB escaped. -->
  <xsl:template name="json-string">
    <xsl:param name="s"/>
    <xsl:text>"</xsl:text>
    <xsl:call-template name="escape">
      <xsl:with-param name="s" select="$s"/>
    </xsl:call-template>
    <xsl:text>"</xsl:text>
  </xsl:template>

  <!--
    Escaping works character by character, so a long text can be cut anywhere: texts
    longer than 256 characters are halved recursively before the replacements run. This
    keeps the template nesting depth (one level per replaced character, see below) far
    below xsltproc's default limit of 3000, even for a string of thousands of lines.
  -->
  <xsl:template name="escape">
    <xsl:param name="s"/>
    <xsl:variable name="n" select="string-length($s)"/>
    <xsl:choose>
      <xsl:when test="$n &gt; 256">
        <xsl:variable name="half" select="floor($n div 2)"/>
        <xsl:call-template name="escape">
          <xsl:with-param name="s" select="substring($s, 1, $half)"/>
        </xsl:call-template>
        <xsl:call-template name="escape">
          <xsl:with-param name="s" select="substring($s, $half + 1)"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="escape-backslash">
          <xsl:with-param name="s" select="$s"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!--
    The escapes are applied in a chain, one character per template, each template
    handing the pieces between its character's occurrences to the next one:
    \ then " then LF then CR then TAB. Since each template only ever sees
    original text (never an escape written by an earlier one), the order is safe.
  -->
  <xsl:template name="escape-backslash">
    <xsl:param name="s"/>
    <xsl:choose>
      <xsl:when test="contains($s, '\')">
        <xsl:call-template name="escape-quote">
          <xsl:with-param name="s" select="substring-before($s, '\')"/>
        </xsl:call-template>
        <xsl:text>\\</xsl:text>
        <xsl:call-template name="escape-backslash">
          <xsl:with-param name="s" select="substring-after($s, '\')"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="escape-quote">
          <xsl:with-param name="s" select="$s"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="escape-quote">
    <xsl:param name="s"/>
    <xsl:choose>
      <xsl:when test="contains($s, '&quot;')">
        <xsl:call-template name="escape-lf">
          <xsl:with-param name="s" select="substring-before($s, '&quot;')"/>
        </xsl:call-template>
        <xsl:text>\"</xsl:text>
        <xsl:call-template name="escape-quote">
          <xsl:with-param name="s" select="substring-after($s, '&quot;')"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="escape-lf">
          <xsl:with-param name="s" select="$s"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="escape-lf">
    <xsl:param name="s"/>
    <xsl:choose>
      <xsl:when test="contains($s, '&#10;')">
        <xsl:call-template name="escape-cr">
          <xsl:with-param name="s" select="substring-before($s, '&#10;')"/>
        </xsl:call-template>
        <xsl:text>\n</xsl:text>
        <xsl:call-template name="escape-lf">
          <xsl:with-param name="s" select="substring-after($s, '&#10;')"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="escape-cr">
          <xsl:with-param name="s" select="$s"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="escape-cr">
    <xsl:param name="s"/>
    <xsl:choose>
      <xsl:when test="contains($s, '&#13;')">
        <xsl:call-template name="escape-tab">
          <xsl:with-param name="s" select="substring-before($s, '&#13;')"/>
        </xsl:call-template>
        <xsl:text>\r</xsl:text>
        <xsl:call-template name="escape-cr">
          <xsl:with-param name="s" select="substring-after($s, '&#13;')"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="escape-tab">
          <xsl:with-param name="s" select="$s"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="escape-tab">
    <xsl:param name="s"/>
    <xsl:choose>
      <xsl:when test="contains($s, '&#9;')">
        <xsl:value-of select="substring-before($s, '&#9;')"/>
        <xsl:text>\t</xsl:text>
        <xsl:call-template name="escape-tab">
          <xsl:with-param name="s" select="substring-after($s, '&#9;')"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="$s"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
