# CPack: the Debian package (cpack -G DEB) and the source tarball (cpack --config
# CPackSourceConfig.cmake). packaging/build-deb.sh drives both from a clean checkout.
set(CPACK_PACKAGE_NAME outlier-explorer)
set(CPACK_PACKAGE_VENDOR "The Outlier Explorer developers")
set(CPACK_PACKAGE_CONTACT "${OE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # outlier-explorer_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
# The libraries (Qt, QCustomPlot, libmongoc, QtKeychain, zlib) from dpkg-shlibdeps; then what
# is loaded at run time rather than linked: Qt's platform plugins (xcb, offscreen).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gnome-keyring | kwalletmanager")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "\
MongoDB documents whose arrays grow without bound (a viral post's
comments, a bot's activity feed, a best-seller's buyers) slow every query
that touches them, and at 16 MB writes start failing. Outlier Explorer
charts the distribution of document sizes and array lengths of a live
collection or a mongodump file, highlights the outliers, and applies the
outlier pattern: it keeps the first N array elements in the document,
sets a flag, and moves the rest into pages of an overflow collection,
journaled, resumable, verified and reversible.
.
The package holds the desktop explorer (outlier-explorer) and the
command-line tool (outlier-explorer-cli) for scripts.")

set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_PACKAGE_FILE_NAME "outlier-explorer-${PROJECT_VERSION}")
set(CPACK_SOURCE_IGNORE_FILES
    "/\\\\.git/" "/\\\\.cache/" "/build[^/]*/" "/node_modules/" "/__pycache__/" "\\\\.swp$" "~$")

include(CPack)
