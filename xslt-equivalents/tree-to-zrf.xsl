<?xml version="1.0" encoding="UTF-8"?>
<!--
  tree-to-zrf.xsl: the tree XML written by dagaz convert FILE with the xml output
  (stage syntax or expanded) to the printed ZRF written by dagaz convert FILE with the
  zrf output, byte for byte (see docs/formats.md, sections "XML" and "Printed ZRF").

  Usage: xsltproc xslt-equivalents/tree-to-zrf.xsl tree.xml > tree.zrf
  XSLT 1.0; tested with xsltproc (libxslt).

  Layout, print(node, indent):
  - atom, number: the text; string: '"' text '"'; comment: ';' text.
  - list with no children: ().
  - list whose children are all atoms, numbers or strings: ( children joined by one space ).
  - any other list: '(', its leading leaves (the atoms, numbers and strings before the
    first list or comment child) joined by one space, then each remaining child on a new
    line indented by indent + 2 spaces, then ')' right after the last child, unless that
    child is a comment: then a new line, indent spaces and ')'.
  - the file: each form at indent 0 followed by LF; a list form that is not the first
    form is preceded by one empty line.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="text" encoding="UTF-8"/>
  <!-- Only zrf and list hold layout whitespace; string and comment text is kept verbatim
       (a CR written as &#13; in the XML comes out as a real CR). -->
  <xsl:strip-space elements="zrf list"/>

  <xsl:template match="/zrf">
    <xsl:for-each select="*">
      <xsl:if test="self::list and position() &gt; 1">
        <xsl:text>&#10;</xsl:text>
      </xsl:if>
      <xsl:apply-templates select=".">
        <xsl:with-param name="indent" select="''"/>
      </xsl:apply-templates>
      <xsl:text>&#10;</xsl:text>
    </xsl:for-each>
  </xsl:template>

  <xsl:template match="atom | number">
    <xsl:value-of select="."/>
  </xsl:template>

  <xsl:template match="string">
    <xsl:text>"</xsl:text>
    <xsl:value-of select="."/>
    <xsl:text>"</xsl:text>
  </xsl:template>

  <xsl:template match="comment">
    <xsl:text>;</xsl:text>
    <xsl:value-of select="."/>
  </xsl:template>

  <!-- indent: the current indentation as a string of spaces. -->
  <xsl:template match="list">
    <xsl:param name="indent" select="''"/>
    <xsl:variable name="breaks" select="*[self::list or self::comment]"/>
    <xsl:text>(</xsl:text>
    <xsl:choose>
      <xsl:when test="not($breaks)">
        <!-- (), or all leaves on one line -->
        <xsl:for-each select="*">
          <xsl:if test="position() &gt; 1">
            <xsl:text> </xsl:text>
          </xsl:if>
          <xsl:apply-templates select="."/>
        </xsl:for-each>
      </xsl:when>
      <xsl:otherwise>
        <!-- number of leading leaves = children before the first list or comment -->
        <xsl:variable name="lead" select="count($breaks[1]/preceding-sibling::*)"/>
        <xsl:variable name="inner" select="concat($indent, '  ')"/>
        <xsl:for-each select="*[position() &lt;= $lead]">
          <xsl:if test="position() &gt; 1">
            <xsl:text> </xsl:text>
          </xsl:if>
          <xsl:apply-templates select="."/>
        </xsl:for-each>
        <xsl:for-each select="*[position() &gt; $lead]">
          <xsl:text>&#10;</xsl:text>
          <xsl:value-of select="$inner"/>
          <xsl:apply-templates select=".">
            <xsl:with-param name="indent" select="$inner"/>
          </xsl:apply-templates>
        </xsl:for-each>
        <xsl:if test="*[last()][self::comment]">
          <xsl:text>&#10;</xsl:text>
          <xsl:value-of select="$indent"/>
        </xsl:if>
      </xsl:otherwise>
    </xsl:choose>
    <xsl:text>)</xsl:text>
  </xsl:template>
</xsl:stylesheet>
