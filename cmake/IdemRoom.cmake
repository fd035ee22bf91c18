# A room of models/: one folder, one static library (idem_<name>) of every
# source and header in it, found again at each build, so that a new file needs
# no edit of any list. A room sees its own headers and those of the rooms it
# is ABOVE, nothing else: a file that includes a header of a room above its
# own does not compile, and the linker never meets an arrow that runs up.
#
#   idem_room(engine ABOVE core database words)
#   idem_room(database ABOVE core LINK PRIVATE SQLite::SQLite3)
function(idem_room name)
    cmake_parse_arguments(PARSE_ARGV 1 ROOM "" "" "ABOVE;LINK")
    file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp
         ${CMAKE_CURRENT_SOURCE_DIR}/*.h)
    add_library(idem_${name} ${IDEM_LIBRARY_TYPE} ${sources})
    target_include_directories(idem_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(idem_${name} PUBLIC Qt6::Core)
    foreach(below IN LISTS ROOM_ABOVE)
        target_link_libraries(idem_${name} PUBLIC idem_${below})
    endforeach()
    if(ROOM_LINK)
        target_link_libraries(idem_${name} ${ROOM_LINK})
    endif()
endfunction()
