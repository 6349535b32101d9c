# CPack: the Debian package (cpack -G DEB) and the source tarball (cpack --config
# CPackSourceConfig.cmake). packaging/build-deb.sh drives both from a clean checkout.
set(CPACK_PACKAGE_NAME outlier-explorer)
set(CPACK_PACKAGE_VENDOR "The Outlier Explorer developers")
set(CPACK_PACKAGE_CONTACT "${OE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's summary is the first line of its own description (CPACK_DEBIAN_<COMPONENT>_
# DESCRIPTION): CPackDeb prepends the common summary unless it is CPack's default, so it is.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

# Two packages from the install components (packaging/CMakeLists.txt), so a headless server
# installs the CLI without the desktop's widgets and keychain:
#   outlier-explorer-cli  the CLI (QtCore, the MongoDB C driver, zlib)
#   outlier-explorer      the desktop app and the CLI's report plugin (widgets, QCustomPlot,
#                         QtKeychain, Qt's platform plugins)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL cli desktop)
set(CPACK_DEBIAN_CLI_PACKAGE_NAME outlier-explorer-cli)
set(CPACK_DEBIAN_DESKTOP_PACKAGE_NAME outlier-explorer)
set(CPACK_DEBIAN_CLI_FILE_NAME DEB-DEFAULT)     # outlier-explorer-cli_0.1.0_amd64.deb
set(CPACK_DEBIAN_DESKTOP_FILE_NAME DEB-DEFAULT) # outlier-explorer_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
# The libraries (Qt, QCustomPlot, libmongoc, QtKeychain, zlib) from dpkg-shlibdeps, per
# package; then what is loaded at run time rather than linked: Qt's platform plugins (xcb,
# offscreen) for the desktop app and the report plugin, and Qt's SQLite driver for both.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_DESKTOP_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6sql6-sqlite")
# The analysis history is an SQLite file read through Qt's SQLite driver (a plugin).
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS "libqt6sql6-sqlite")
set(CPACK_DEBIAN_DESKTOP_PACKAGE_RECOMMENDS "outlier-explorer-cli (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_DESKTOP_PACKAGE_SUGGESTS "gnome-keyring | kwalletmanager")
# `outlier-explorer-cli report` draws its charts with the desktop package's plugin.
set(CPACK_DEBIAN_CLI_PACKAGE_SUGGESTS "outlier-explorer (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(OE_PACKAGE_ABOUT "MongoDB documents whose arrays grow without bound (a viral post's
comments, a bot's activity feed, a best-seller's buyers) slow every query
that touches them, and at 16 MB writes start failing. Outlier Explorer
charts the distribution of document sizes and array lengths of a live
collection or a mongodump file, highlights the outliers, and applies the
outlier pattern: it keeps the first N array elements in the document,
sets a flag, and moves the rest into pages of an overflow collection,
journaled, resumable, verified and reversible.
.")
set(CPACK_DEBIAN_DESKTOP_DESCRIPTION "${PROJECT_DESCRIPTION}
${OE_PACKAGE_ABOUT}
This package holds the desktop explorer (outlier-explorer), and the
renderer that outlier-explorer-cli's report command loads.")
set(CPACK_DEBIAN_CLI_DESCRIPTION "${PROJECT_DESCRIPTION} (command line)
${OE_PACKAGE_ABOUT}
This package holds the command-line tool (outlier-explorer-cli) for
scripts and headless servers: it needs QtCore and the MongoDB C driver,
none of the desktop's libraries. Its report command (HTML, PDF) draws
its charts with the outlier-explorer package's renderer.")

set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_PACKAGE_FILE_NAME "outlier-explorer-${PROJECT_VERSION}")
set(CPACK_SOURCE_IGNORE_FILES
    "/\\\\.git/" "/\\\\.cache/" "/build[^/]*/" "/node_modules/" "/__pycache__/" "\\\\.swp$" "~$")

include(CPack)
