package prism

// ClipText is clipText, for the tests.
var ClipText = clipText
